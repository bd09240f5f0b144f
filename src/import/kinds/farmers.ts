import { ENUMS } from '../../formats/brazilian';
import { cpf as cpfLib } from 'cpf-cnpj-validator';
import { RegistrationKind } from '../../law/types';
import { Actor } from '../../services/actor';
import { BadInputError } from '../../services/errors';
import { assertCanWriteShared, checkRegistrations } from '../../services/family-farmer.service';
import { assertCanWriteFor } from '../../services/scope';
import { requireText } from '../../services/validation';
import { ImportLineError } from '../import-error';
import { failures, ImportKind, sqlCheck, STAGING } from '../import-kind';
import { message } from '../../i18n';

/**
 * Family farmers (Lei 11.326/2006; Decreto 10.527/2020 art. 2º IV), one registration a line (same
 * CPF repeated, or blank); a CPF on record is a CONFLICT.
 */
export const farmersImport: ImportKind = {
  name: 'farmers',
  producerScoped: true,
  columns: [
    { name: 'cpf', required: true },
    { name: 'name', required: true, portuguese: ['nome', 'nomeDoAgricultor'] },
    { name: 'municipalityCode', required: true, aliases: ['municipality', 'ibgeCode'], portuguese: ['municipio', 'codigoDoMunicipio', 'codigoMunicipio', 'codigoIbge', 'codIbge'] },
    { name: 'registrationKind', required: false, aliases: ['kind'], type: ENUMS.RegistrationKind, portuguese: ['tipoDeRegistro', 'tipoRegistro', 'tipo', 'dapCaf'] },
    { name: 'registrationNumber', required: false, aliases: ['number'], portuguese: ['numeroDoRegistro', 'numeroRegistro', 'numero', 'numeroDapCaf'] },
    { name: 'validFrom', required: false, type: 'date', portuguese: ['validoDe', 'validaDe', 'inicioDaValidade', 'validadeInicio', 'emissao', 'dataDeEmissao'] },
    { name: 'validUntil', required: false, type: 'date', portuguese: ['validoAte', 'validaAte', 'fimDaValidade', 'validadeFim', 'validade', 'vencimento'] },
  ],
  stagingColumns: [['cpf', 'text'], ['name', 'text'], ['municipality_code', 'text'], ['kind', 'text'], ['number', 'text'], ['valid_from', 'date'], ['valid_until', 'date']],

  authorize(actor: Actor, producerId: string | null) {
    assertCanWriteShared(actor);
    if (producerId !== null) assertCanWriteFor(actor, 'Producer', producerId);
  },

  toStaging(row) {
    // The CPF scalar's rule (src/graphql/scalars.ts): masked or bare, check digits verified.
    const bare = (row.cpf ?? '').replace(/[.\-\s]/g, '');
    if (!/^\d{11}$/.test(bare) || !cpfLib.isValid(bare)) throw new BadInputError('.cpf', message('scalar.cpf', { value: row.cpf ?? '' }));
    const name = requireText(row.name, '.name');
    const code = row.municipalityCode ?? '';
    const given = ['registrationKind', 'registrationNumber', 'validFrom', 'validUntil'].filter((c) => row[c] !== undefined);
    if (given.length === 0) return [bare, name, code, null, null, null, null];
    try {
      const [r] = checkRegistrations([{ kind: row.registrationKind as RegistrationKind, number: row.registrationNumber as string, validFrom: row.validFrom as string, validUntil: row.validUntil as string }]);
      return [bare, name, code, r.kind, r.number, r.validFrom, r.validUntil];
    } catch (e) {
      if (!(e instanceof BadInputError)) throw e;
      const column = { kind: 'registrationKind', number: 'registrationNumber', validFrom: 'validFrom', validUntil: 'validUntil' }[e.field.split('.').pop()!] ?? 'registrationKind';
      throw new BadInputError(`.${column}`, { ...e.text, params: { ...e.text.params, field: column } });
    }
  },

  check(em) {
    const s = STAGING;
    return failures([
      sqlCheck(em, `SELECT s.line, s.municipality_code AS code FROM ${s} s WHERE NOT EXISTS (SELECT 1 FROM municipality m WHERE m.ibge_code = s.municipality_code)`, [],
        (r) => new ImportLineError('BAD_USER_INPUT', r.line, 'municipalityCode', message('input.unknownMunicipality', { code: String(r.code) }))),
      sqlCheck(em, `SELECT line, cpf, 'name' AS col FROM (SELECT line, cpf, name, first_value(name) OVER w AS first_name, first_value(municipality_code) OVER w AS first_code, municipality_code
                      FROM ${s} WINDOW w AS (PARTITION BY cpf ORDER BY line)) d WHERE name <> first_name OR municipality_code <> first_code`, [],
        (r) => new ImportLineError('BAD_USER_INPUT', r.line, 'name', message('import.cpfOtherName', { cpf: String(r.cpf) }))),
      sqlCheck(em, `SELECT s.line, s.cpf FROM ${s} s JOIN family_farmer f ON f.cpf = s.cpf`, [],
        (r) => new ImportLineError('CONFLICT', r.line, 'cpf', message('import.cpfTaken', { cpf: String(r.cpf) }), 'DUPLICATE')),
    ]);
  },

  async write(em, producerId) {
    const [farmers] = await em.query(
      `WITH ins AS (INSERT INTO family_farmer (cpf, name, municipality_code)
                    SELECT DISTINCT ON (cpf) cpf, name, municipality_code FROM ${STAGING} ORDER BY cpf, line RETURNING id)
       SELECT count(*)::int AS n, min(id)::text AS first, max(id)::text AS last FROM ins`,
    );
    const [registrations] = await em.query(
      `WITH ins AS (INSERT INTO family_farmer_registration (family_farmer_id, kind, number, valid_from, valid_until)
                    SELECT f.id, s.kind, s.number, s.valid_from, s.valid_until FROM ${STAGING} s JOIN family_farmer f ON f.cpf = s.cpf
                     WHERE s.kind IS NOT NULL ORDER BY s.line RETURNING id)
       SELECT count(*)::int AS n FROM ins`,
    );
    return {
      counts: { farmers: farmers.n, registrations: registrations.n },
      audit: [{ operation: 'importFamilyFarmers', entity: 'FamilyFarmer', entityId: null, producerId, after: { farmers: farmers.n, registrations: registrations.n, firstId: farmers.first, lastId: farmers.last } }],
    };
  },
};
