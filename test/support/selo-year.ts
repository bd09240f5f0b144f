import { TestApi } from './api';
import { FEIRA, newCnpj, newCpf, PORTO_ALEGRE, RECIFE, upsertMunicipalities, publishMemberMinimum } from './fixtures';

/**
 * The records of a producer's Selo year, through the API's mutations: family farmers and
 * organizations with their DAP/CAF (Decreto 10.527/2020, art. 2º IV–V), contracts (art. 3º §2 II–III)
 * and purchases; and one year of a Nordeste producer with a purchase counted or excluded for each
 * reason the law gives.
 */

export type Reg = [kind: 'DAP' | 'CAF', validFrom: string, validUntil: string];

const registrations = (regs: Reg[], prefix: string) => regs.map(([kind, validFrom, validUntil], i) => ({ kind, number: `${prefix}-${kind}-${i}`, validFrom, validUntil }));

/** A family farmer of Recife with the registrations `regs`. */
export async function farmer(api: TestApi, regs: Reg[]): Promise<string> {
  const cpf = newCpf();
  const d = await api.ok(`mutation($i: CreateFamilyFarmerInput!) { createFamilyFarmer(input: $i) { id } }`, {
    i: { cpf, name: 'Agricultora', municipalityCode: RECIFE, registrations: registrations(regs, cpf) },
  });
  return d.createFamilyFarmer.id;
}

/** A cooperative or association of Feira de Santana with its member counts and DAP/CAF jurídica. */
export async function organization(api: TestApi, kind: 'COOPERATIVE' | 'ASSOCIATION', members: number, familyFarmers: number, regs: Reg[]): Promise<string> {
  const cnpj = newCnpj();
  const d = await api.ok(`mutation($i: CreateOrganizationInput!) { createOrganization(input: $i) { id } }`, {
    i: { cnpj, name: `${kind} do Sertão`, kind, municipalityCode: FEIRA, members, familyFarmerMembers: familyFarmers, registrations: registrations(regs, cnpj) },
  });
  return d.createOrganization.id;
}

export interface ContractSpec {
  farmer?: string; org?: string; signedOn?: string; validFrom?: string; validUntil?: string; feedstock?: string; pricePerKg?: string; technicalAssistance?: boolean;
}

/** A contract of 100.000 kg; by default soybean at R$ 2,50/kg with technical assistance, signed 2025-01-10, valid through 2025. */
export async function contract(api: TestApi, producerId: string, s: ContractSpec): Promise<string> {
  const d = await api.ok(`mutation($i: CreateContractInput!) { createContract(input: $i) { id } }`, {
    i: {
      producerId, familyFarmerId: s.farmer ?? null, organizationId: s.org ?? null, signedOn: s.signedOn ?? '2025-01-10',
      validFrom: s.validFrom ?? '2025-01-10', validUntil: s.validUntil ?? '2025-12-31', feedstock: s.feedstock ?? 'SOYBEAN',
      quantityKg: '100000', pricePerKg: s.pricePerKg ?? '2.50', technicalAssistance: s.technicalAssistance ?? true,
    },
  });
  return d.createContract.id;
}

export interface PurchaseSpec {
  on: string; cost: string; farmer?: string; org?: string; kind?: string; contract?: string; origin?: string; feedstock?: string; purpose?: string;
}

/** Purchases of 1.000 kg in one batch; by default soybean for biodiesel from a family farmer, produced in Recife. */
export async function purchases(api: TestApi, producerId: string, specs: PurchaseSpec[]): Promise<string[]> {
  const d = await api.ok(`mutation($i: [RecordPurchaseInput!]!) { recordPurchases(input: $i) { id } }`, {
    i: specs.map((s) => ({
      producerId, purchasedOn: s.on, feedstock: s.feedstock ?? 'SOYBEAN', quantityKg: '1000', cost: s.cost,
      supplierKind: s.kind ?? (s.org ? 'COOPERATIVE' : 'FAMILY_FARMER'), familyFarmerId: s.farmer ?? null, organizationId: s.org ?? null,
      originMunicipalityCode: s.origin ?? RECIFE, contractId: s.contract ?? null, purpose: s.purpose ?? 'BIODIESEL_FEEDSTOCK',
      supplierName: s.kind === 'THIRD_PARTY' ? 'Trading S.A.' : null,
    })),
  });
  return d.recordPurchases.map((p: { id: string }) => p.id);
}

/**
 * Recife, Porto Alegre and Feira de Santana; the PGPAF minimum price of soybean (Decreto
 * 5.996/2006): R$ 2,40/kg from 2025-01-01, published 2024-12-20. Returns a farmer with a CAF valid
 * 2023–2027, eligible all year.
 */
export async function setUpSeloYear(api: TestApi): Promise<string> {
  await upsertMunicipalities(api, [RECIFE, PORTO_ALEGRE, FEIRA]);
  await publishMemberMinimum(api);
  await api.ok(`mutation($i: PublishMinimumPriceInput!) { publishMinimumPrice(input: $i) { id } }`, {
    i: { feedstock: 'SOYBEAN', validFrom: '2025-01-01', validUntil: '2026-12-31', pricePerKg: '2.40', source: 'Portaria PGPAF (test) 2024', publishedOn: '2024-12-20' },
  });
  return farmer(api, [['CAF', '2023-01-01', '2027-12-31']]);
}

/** The purchases of `nordesteYear`, by name. */
export interface NordesteYear {
  aSouthOrigin: string; aRecife: string; bRecife: string; bSouth: string; association: string;
  noContract: string; signedAfter: string; dateNotCovered: string; feedstockNotCovered: string; priceBelow: string; noTa: string;
  expiredDap: string; lowShare: string; unregistered: string; lateDap: string; thirdParty: string; lastYear: string;
}

/**
 * The 2025 purchases of producer `p` (plant in Recife) with their suppliers and contracts: some that
 * count for the Selo (art. 3º §2 I a and b), one excluded for each reason, a third-party purchase and
 * one of 2024. `f1` is the farmer of setUpSeloYear.
 */
export async function nordesteYear(api: TestApi, p: string, f1: string): Promise<NordesteYear> {
  const f2 = await farmer(api, [['CAF', '2023-01-01', '2027-12-31']]);
  const expiredDap = await farmer(api, [['DAP', '2022-01-01', '2024-12-31']]);
  const lateDap = await farmer(api, [['DAP', '2022-11-01', '2025-12-31']]);
  const lowShareCoop = await organization(api, 'COOPERATIVE', 100, 59, [['CAF', '2023-01-01', '2027-12-31']]);
  const unregisteredCoop = await organization(api, 'COOPERATIVE', 100, 80, []);
  const association = await organization(api, 'ASSOCIATION', 100, 80, [['CAF', '2023-01-01', '2027-12-31']]);

  const k1 = await contract(api, p, { farmer: f1 });
  const kOther = await contract(api, p, { farmer: f1, feedstock: 'OTHER', pricePerKg: '1.00' });
  const kSignedLate = await contract(api, p, { farmer: f2, signedOn: '2025-06-01', validFrom: '2025-01-01' });
  const kEnded = await contract(api, p, { farmer: f1, signedOn: '2025-01-05', validFrom: '2025-01-05', validUntil: '2025-02-28' });
  const kCheap = await contract(api, p, { farmer: f1, pricePerKg: '2.39' });
  const kNoTa = await contract(api, p, { farmer: f1, technicalAssistance: false });
  const kExpired = await contract(api, p, { farmer: expiredDap });
  const kLowShare = await contract(api, p, { org: lowShareCoop });
  const kUnregistered = await contract(api, p, { org: unregisteredCoop });
  const kAssociation = await contract(api, p, { org: association });

  const [
    aSouthOrigin, aRecife, bRecife, bSouth, associationPurchase,
    noContract, signedAfter, dateNotCovered, feedstockNotCovered, priceBelow, noTa,
    expiredDapPurchase, lowShare, unregistered, lateDapPurchase, thirdParty, lastYear,
  ] = await purchases(api, p, [
    // (a) counted: R$ 50.000 produced in Porto Alegre (outside the priority region) and R$ 30.000 in Recife.
    { on: '2025-03-01', cost: '50000', farmer: f1, contract: k1, origin: PORTO_ALEGRE },
    { on: '2025-04-01', cost: '30000', farmer: f1, contract: k1 },
    // (b) counted: other products from Recife, R$ 20.000; excluded from Porto Alegre, R$ 7.000.
    { on: '2025-05-01', cost: '20000', farmer: f1, contract: kOther, feedstock: 'OTHER', purpose: 'OTHER_PRODUCT' },
    { on: '2025-05-02', cost: '7000', farmer: f1, contract: kOther, feedstock: 'OTHER', purpose: 'OTHER_PRODUCT', origin: PORTO_ALEGRE },
    // (a) counted: a habilitated association (art. 2º V; Interpretation: associations count for the Selo), R$ 5.000.
    { on: '2025-07-01', cost: '5000', org: association, kind: 'ASSOCIATION', contract: kAssociation },
    // Excluded, each for its reason.
    { on: '2025-03-05', cost: '1000', farmer: f1 },
    { on: '2025-05-15', cost: '1100', farmer: f2, contract: kSignedLate },
    { on: '2025-03-10', cost: '1200', farmer: f1, contract: kEnded },
    { on: '2025-03-11', cost: '1300', farmer: f1, contract: k1, feedstock: 'CASTOR_BEAN' },
    { on: '2025-03-12', cost: '1400', farmer: f1, contract: kCheap },
    { on: '2025-03-13', cost: '1500', farmer: f1, contract: kNoTa },
    { on: '2025-03-14', cost: '1600', farmer: expiredDap, contract: kExpired },
    { on: '2025-03-15', cost: '1700', org: lowShareCoop, contract: kLowShare },
    { on: '2025-03-16', cost: '1800', org: unregisteredCoop, contract: kUnregistered },
    { on: '2025-08-01', cost: '1900', farmer: lateDap },
    // Not family-farming spending: never listed. Another year: not in 2025.
    { on: '2025-03-01', cost: '99000', kind: 'THIRD_PARTY', origin: PORTO_ALEGRE },
    { on: '2024-12-31', cost: '500', farmer: f1 },
  ]);
  return {
    aSouthOrigin, aRecife, bRecife, bSouth, association: associationPurchase,
    noContract, signedAfter, dateNotCovered, feedstockNotCovered, priceBelow, noTa,
    expiredDap: expiredDapPurchase, lowShare, unregistered, lateDap: lateDapPurchase, thirdParty, lastYear,
  };
}
