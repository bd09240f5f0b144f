import type { MessageKey } from '../../i18n';
import { Role } from '../../law/types';

/** An operation without a rule is refused for all roles; another producer's record is NOT_FOUND. */
export interface Rule {
  kind: 'read' | 'write';
  roles: readonly Role[];
  /** 'own' is scoped here (producerArgs) and in src/services/scope.ts for records named by id. */
  producerSees: 'all' | 'own';
  producerArgs: readonly string[];
  note: string;
  /** The FORBIDDEN message for a role the rule leaves out, when it says more than the role's name. */
  refusal?: MessageKey;
}

const EVERY_ROLE = [Role.ADMIN, Role.AUDITOR, Role.PRODUCER] as const;
const WRITERS = [Role.ADMIN, Role.PRODUCER] as const;

/** Shared data readable by every role. */
function shared(note: string): Rule {
  return { kind: 'read', roles: EVERY_ROLE, producerSees: 'all', producerArgs: [], note };
}

/** A producer's records: every role reads, a PRODUCER only its own. */
function ownRead(note: string, ...producerArgs: string[]): Rule {
  return { kind: 'read', roles: EVERY_ROLE, producerSees: 'own', producerArgs, note };
}

/** Writing a producer's records: ADMIN any, PRODUCER its own, AUDITOR never. */
function ownWrite(note: string, ...producerArgs: string[]): Rule {
  return { kind: 'write', roles: WRITERS, producerSees: 'own', producerArgs, note };
}

/** The ministry's view of the whole program: ADMIN and AUDITOR; a PRODUCER is FORBIDDEN (Decreto 10.527/2020, art. 4º). */
function ministryRead(note: string): Rule {
  return { kind: 'read', roles: [Role.ADMIN, Role.AUDITOR], producerSees: 'own', producerArgs: [], note };
}

/** Shared records that a producer's team registers (farmers, organizations): ADMIN and PRODUCER. */
function sharedWrite(note: string): Rule {
  return { kind: 'write', roles: WRITERS, producerSees: 'all', producerArgs: [], note };
}

/** The law and reference data: ADMIN only (the access rules, README "Tokens"). */
function adminWrite(note: string, refusal?: MessageKey): Rule {
  return { kind: 'write', roles: [Role.ADMIN], producerSees: 'all', producerArgs: [], note, ...(refusal ? { refusal } : {}) };
}

export const QUERY_RULES: Readonly<Record<string, Rule>> = {
  municipality: shared('Reference data (IBGE municipalities).'),
  familyFarmer: shared('Family farmers are readable by all (the access rules, README "Tokens").'),
  familyFarmers: shared('Family farmers are readable by all (the access rules, README "Tokens").'),
  organization: shared('Organizations are readable by all (the access rules, README "Tokens").'),
  organizations: shared('Organizations are readable by all (the access rules, README "Tokens").'),
  coefficientRules: shared('The law is readable by all.'),
  minimumPrices: shared('The law is readable by all (PGPAF minimum prices).'),
  rate: shared('A question about the law, with no producer record in it.'),
  lawParameterVersions: shared('The law is readable by all.'),
  lawParameterCatalogue: shared('The law is readable by all (which parameters exist).'),
  producer: ownRead('A PRODUCER gets only its own producer; another is null, as a missing one (loader scope).'),
  producers: ownRead('A PRODUCER lists only its own producer (service scope).'),
  contract: ownRead('Scoped by the contract\'s producer in the service (NOT_FOUND outside).'),
  purchase: ownRead('Scoped by the purchase\'s producer in the service (NOT_FOUND outside).'),
  sealGrant: ownRead('Scoped by the grant\'s producer in the service.'),
  sealGrants: ownRead('Scoped by producer.', 'producerId'),
  regimeElections: ownRead('Scoped by producer.', 'producerId'),
  taxPeriod: ownRead('A producer\'s month (Lei 11.116/2005); another producer is NOT_FOUND.', 'producerId'),
  creditBalances: ownRead('A producer\'s credit balances (Lei 10.637/2002, art. 3º § 4º); another producer is NOT_FOUND.', 'producerId'),
  importContributions: ownRead('A producer\'s imports of a month and their contributions; another producer is NOT_FOUND.', 'producerId'),
  sealCompliance: ownRead('A producer\'s year of Selo compliance; another producer is NOT_FOUND.', 'producerId'),
  sealPlan: ownRead('A producer\'s Selo plan for a year (nothing is written); another producer is NOT_FOUND.', 'producerId'),
  programOverview: ministryRead('Every producer\'s figures together: the ministry\'s (ADMIN, AUDITOR); a PRODUCER is FORBIDDEN.'),
  auditLog: ownRead('ADMIN and AUDITOR see every entry; a PRODUCER only entries of its own records (service scope).'),
};

export const MUTATION_RULES: Readonly<Record<string, Rule>> = {
  upsertMunicipalities: adminWrite('Reference data: ADMIN only.'),
  createProducer: adminWrite('Registering a producer is the ministry\'s: ADMIN only.'),
  updateProducer: ownWrite('A PRODUCER may change its own producer only.', 'id'),
  electRegime: ownWrite('A producer elects its own regime (Lei 11.116/2005, art. 4º).', 'input.producerId'),
  grantSeal: adminWrite('Selo grants are the ministry\'s acts: ADMIN only (the access rules, README "Tokens").'),
  recordSealEvent: adminWrite('Selo events are the ministry\'s acts: ADMIN only (the access rules, README "Tokens").'),
  recordSealEvaluation: adminWrite('The evaluation of a Selo year is the ministry\'s act (Portaria MDA nº 28/2024, art. 58): ADMIN only.'),
  // A new record changes no figure already computed (a CPF or CNPJ already registered is a CONFLICT).
  createFamilyFarmer: sharedWrite('A producer\'s team registers the farmers it buys from; readable by all.'),
  createOrganization: sharedWrite('A producer\'s team registers the organizations it buys from; readable by all.'),
  // Every producer buying from an organization reads its members (habilitation, art. 4º VI): a
  // PRODUCER writes only its own producer's records, so changing one is the ministry's.
  updateOrganization: adminWrite('An organization is shared: its members decide the figures of every producer that buys from it. ADMIN only.', 'auth.sharedRecordAdminOnly'),
  createContract: ownWrite('A producer\'s own contracts.', 'input.producerId'),
  recordPurchases: ownWrite('A producer\'s own purchases; every item must name it.', 'input[].producerId'),
  recordSales: ownWrite('A producer\'s own sales; every item must name it.', 'input[].producerId'),
  recordImports: ownWrite('A producer\'s own imports of biodiesel; every item must name it.', 'input[].producerId'),
  recordFomento: ownWrite('A producer\'s own fomento spending; every item must name it.', 'input[].producerId'),
  publishMinimumPrice: adminWrite('The law: ADMIN only.'),
  publishCoefficientRule: adminWrite('The law: ADMIN only.'),
  publishLawParameter: adminWrite('The law: ADMIN only.'),
  closeTaxPeriod: ownWrite('A producer closes its own month.', 'producerId'),
  recordCreditClaim: ownWrite('A producer files claims against its own balances (Lei 11.116/2005, art. 16).', 'input.producerId'),
  electCreditApportionment: ownWrite('A producer elects its own apportionment method (Lei 10.637/2002, art. 3º § 9º).', 'input.producerId'),
  electIncidenceRegime: ownWrite('A producer elects its own regime of incidence (Lei 10.637/2002 art. 8º; Lei 10.833/2003 art. 10).', 'input.producerId'),
  recordReturns: ownWrite('A PRODUCER records returns of its own purchases and sales (named by id, scoped in the service).'),
  cancelDocument: ownWrite('A PRODUCER cancels the records of its own notes only (the service scopes the key to its records).'),
  correctPurchase: ownWrite('A PRODUCER corrects its own purchases (named by id, scoped in the service); a closed month is an ADMIN\'s to change.'),
  correctImport: ownWrite('A PRODUCER corrects its own imports (named by id, scoped in the service); a closed month is an ADMIN\'s to change.'),
  correctFomento: ownWrite('A PRODUCER corrects its own fomento expenses (named by id, scoped in the service); an evaluated Selo year is an ADMIN\'s to change.'),
  correctSale: ownWrite('A PRODUCER corrects its own sales (named by id, scoped in the service); a closed month is an ADMIN\'s to change.'),
  reopenTaxPeriod: ownWrite('Reopening a producer\'s month, with a reason.', 'producerId'),
};

export function ruleFor(rootType: 'Query' | 'Mutation', field: string): Rule | undefined {
  const table = rootType === 'Query' ? QUERY_RULES : MUTATION_RULES;
  return Object.prototype.hasOwnProperty.call(table, field) ? table[field] : undefined;
}

export function valuesAt(args: Record<string, unknown>, path: string): unknown[] {
  let current: unknown[] = [args];
  for (const part of path.split('.')) {
    const list = part.endsWith('[]');
    const key = list ? part.slice(0, -2) : part;
    const next: unknown[] = [];
    for (const value of current) {
      if (value == null || typeof value !== 'object') continue;
      const child = (value as Record<string, unknown>)[key];
      if (child == null) continue;
      if (list) {
        if (Array.isArray(child)) next.push(...child);
      } else {
        next.push(child);
      }
    }
    current = next;
  }
  return current;
}
