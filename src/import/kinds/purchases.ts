import { Actor } from '../../services/actor';
import { PurchaseService, RecordPurchaseInput } from '../../services/purchase.service';
import { assertCanWriteFor } from '../../services/scope';
import { Feedstock, PurchasePurpose, SupplierKind } from '../../law/types';
import { Decimal } from '../../law/decimal';
import { ImportLineError } from '../import-error';
import { firstFailure, ImportKind, sqlCheck, STAGING } from '../import-kind';
import { bulkInsert, checkPeriodsOpen, decimalCell, idCell, lockReferenced } from './common';

/**
 * Purchases of raw material (Decreto 10.527/2020, art. 3º §2 I; art. 6º §§3º–4º), the columns of
 * RecordPurchaseInput, for one producer. Every rule of recordPurchases applies.
 */
export const purchasesImport: ImportKind = {
  name: 'purchases',
  producerScoped: true,
  columns: [
    { name: 'purchasedOn', required: true },
    { name: 'consumedOn', required: false },
    { name: 'feedstock', required: true },
    { name: 'quantityKg', required: true },
    { name: 'cost', required: false },
    { name: 'supplierKind', required: true },
    { name: 'familyFarmerId', required: false },
    { name: 'organizationId', required: false },
    { name: 'supplierName', required: false },
    { name: 'originMunicipalityCode', required: true },
    { name: 'contractId', required: false },
    { name: 'purpose', required: false },
    { name: 'externalId', required: false },
  ],
  stagingColumns: [
    ['purchased_on', 'date'], ['consumed_on', 'date'], ['feedstock', 'text'], ['quantity_kg', 'numeric'], ['cost', 'numeric'],
    ['supplier_kind', 'text'], ['family_farmer_id', 'bigint'], ['organization_id', 'bigint'], ['supplier_name', 'text'],
    ['origin_municipality_code', 'text'], ['contract_id', 'bigint'], ['purpose', 'text'], ['external_id', 'text'],
  ],

  authorize(actor: Actor, producerId: string | null) {
    assertCanWriteFor(actor, 'Producer', producerId ?? '');
  },

  toStaging(row, producerId) {
    const quantityKg = decimalCell(row, 'quantityKg');
    const cost = decimalCell(row, 'cost');
    const input: RecordPurchaseInput = {
      producerId: producerId!,
      purchasedOn: row.purchasedOn as string,
      consumedOn: row.consumedOn ?? null,
      feedstock: row.feedstock as Feedstock,
      quantityKg: (quantityKg === undefined ? undefined : new Decimal(quantityKg)) as Decimal,
      cost: cost === undefined ? null : new Decimal(cost),
      supplierKind: row.supplierKind as SupplierKind,
      familyFarmerId: idCell(row, 'familyFarmerId', 'FamilyFarmer'),
      organizationId: idCell(row, 'organizationId', 'FamilyFarmingOrganization'),
      supplierName: row.supplierName ?? null,
      originMunicipalityCode: row.originMunicipalityCode as string,
      contractId: idCell(row, 'contractId', 'Contract'),
      purpose: (row.purpose ?? null) as PurchasePurpose | null,
      externalId: row.externalId ?? null,
    };
    const p = PurchaseService.toRow(input, 'row');
    return [
      p.purchasedOn, p.consumedOn, p.feedstock, p.quantityKg.toFixed(), p.cost === null ? null : p.cost.toFixed(), p.supplierKind,
      p.familyFarmerId, p.organizationId, p.supplierName, p.originMunicipalityCode, p.contractId, p.purpose, p.externalId,
    ];
  },

  async check(em, producerId) {
    const s = STAGING;
    await lockReferenced(em, [
      { table: 'municipality', key: 'ibge_code', column: 'origin_municipality_code' },
      { table: 'family_farmer', key: 'id', column: 'family_farmer_id' },
      { table: 'family_farming_organization', key: 'id', column: 'organization_id' },
      { table: 'contract', key: 'id', column: 'contract_id' },
    ]);
    return firstFailure([
      sqlCheck(em, `SELECT s.line, s.origin_municipality_code AS code FROM ${s} s
                     WHERE NOT EXISTS (SELECT 1 FROM municipality m WHERE m.ibge_code = s.origin_municipality_code)`, [],
        (r) => new ImportLineError('BAD_USER_INPUT', r.line, 'originMunicipalityCode', `Unknown municipality ${r.code} (load it with upsertMunicipalities or the municipalities import)`)),
      sqlCheck(em, `SELECT s.line, s.family_farmer_id AS id FROM ${s} s
                     WHERE s.family_farmer_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM family_farmer f WHERE f.id = s.family_farmer_id)`, [],
        (r) => new ImportLineError('NOT_FOUND', r.line, 'familyFarmerId', `FamilyFarmer ${r.id} not found`)),
      sqlCheck(em, `SELECT s.line, s.organization_id AS id FROM ${s} s
                     WHERE s.organization_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM family_farming_organization o WHERE o.id = s.organization_id)`, [],
        (r) => new ImportLineError('NOT_FOUND', r.line, 'organizationId', `FamilyFarmingOrganization ${r.id} not found`)),
      sqlCheck(em, `SELECT s.line, s.organization_id AS id, s.supplier_kind, o.kind FROM ${s} s JOIN family_farming_organization o ON o.id = s.organization_id
                     WHERE o.kind <> s.supplier_kind`, [],
        (r) => new ImportLineError('BAD_USER_INPUT', r.line, 'supplierKind', `supplierKind ${r.supplier_kind} does not match organization ${r.id}, which is a ${r.kind}`)),
      // A contract of another producer is reported as a missing one (DESIGN §4).
      sqlCheck(em, `SELECT s.line, s.contract_id AS id FROM ${s} s
                     WHERE s.contract_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM contract c WHERE c.id = s.contract_id AND c.producer_id = $1)`, [producerId],
        (r) => new ImportLineError('NOT_FOUND', r.line, 'contractId', `Contract ${r.id} not found`)),
      sqlCheck(em, `SELECT line, external_id FROM (SELECT line, external_id, row_number() OVER (PARTITION BY external_id ORDER BY line) AS n
                      FROM ${s} WHERE external_id IS NOT NULL) d WHERE n > 1`, [],
        (r) => new ImportLineError('CONFLICT', r.line, 'externalId', `externalId ${r.external_id} appears twice in the file for producer ${producerId}`, 'DUPLICATE')),
      sqlCheck(em, `SELECT s.line, s.external_id FROM ${s} s JOIN purchase p ON p.producer_id = $1 AND p.external_id = s.external_id`, [producerId],
        (r) => new ImportLineError('CONFLICT', r.line, 'externalId', `Producer ${producerId} already has a purchase with externalId ${r.external_id}`, 'DUPLICATE')),
      // Decreto 10.527/2020 art. 6º §3º: the purchase weighs in the month it is used (consumedOn).
      () => checkPeriodsOpen(em, producerId!, 'consumed_on', 'consumedOn'),
    ]);
  },

  async write(em, producerId) {
    const [r] = await bulkInsert(em, 'purchase', () => em.query(
      `WITH ins AS (
         INSERT INTO purchase (producer_id, purchased_on, consumed_on, feedstock, quantity_kg, cost, supplier_kind, family_farmer_id, organization_id,
                               supplier_name, origin_municipality_code, contract_id, purpose, external_id)
         SELECT $1, purchased_on, consumed_on, feedstock, quantity_kg, cost, supplier_kind, family_farmer_id, organization_id,
                supplier_name, origin_municipality_code, contract_id, purpose, external_id FROM ${STAGING}
          -- In the order of the (producer, date) indexes, so that their entries are appended, not scattered.
          ORDER BY consumed_on, line
         RETURNING id, quantity_kg, cost)
       SELECT count(*)::int AS n, min(id)::text AS first, max(id)::text AS last, sum(quantity_kg)::text AS kg, sum(cost)::text AS cost FROM ins`,
      [producerId],
    ));
    return {
      counts: { purchases: r.n },
      audit: [{ operation: 'importPurchases', entity: 'Purchase', entityId: null, producerId, after: { rows: r.n, firstId: r.first, lastId: r.last, quantityKg: r.kg, cost: r.cost } }],
    };
  },
};
