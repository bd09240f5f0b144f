/**
 * The demo dataset's tables (invented names; real IBGE codes): municipalities with their Semiárido
 * membership, the producers, the organizations, the minimum prices, prices and lots, the names
 * farmers are made of. demo-data.ts builds the records from them.
 */

/** [IBGE code, name, in the Semiárido]. */
export const MUNICIPALITIES: Array<[string, string, boolean]> = [
  // Sul
  ['4314100', 'Passo Fundo', false], ['4306106', 'Cruz Alta', false], ['4310207', 'Ijuí', false], ['4317202', 'Santa Rosa', false],
  ['4307005', 'Erechim', false], ['4304705', 'Carazinho', false], ['4119905', 'Ponta Grossa', false], ['4104808', 'Cascavel', false],
  ['4127700', 'Toledo', false], ['4109401', 'Guarapuava', false],
  // Centro-Oeste
  ['5107602', 'Rondonópolis', false], ['5107925', 'Sorriso', false], ['5105259', 'Lucas do Rio Verde', false], ['5107040', 'Primavera do Leste', false],
  ['5218805', 'Rio Verde', false], ['5211909', 'Jataí', false], ['5208707', 'Goiânia', false],
  // Nordeste (Semiárido where flagged: a member in every edition of SEMIARID_EDITIONS)
  ['2918407', 'Juazeiro', true], ['2914604', 'Irecê', true], ['2910800', 'Feira de Santana', true], ['2933307', 'Vitória da Conquista', true],
  ['2903201', 'Barreiras', false], ['2919553', 'Luís Eduardo Magalhães', false], ['2611101', 'Petrolina', true], ['2613909', 'Serra Talhada', true],
  ['2606002', 'Garanhuns', true], ['2604106', 'Caruaru', true], ['2311306', 'Quixadá', true], ['2304202', 'Crato', true],
  ['2305506', 'Iguatu', true], ['2313302', 'Tauá', true], ['2304400', 'Fortaleza', false],
  // Sudeste in the Semiárido (north of Minas Gerais): priority region only by the flag.
  ['3143302', 'Montes Claros', true], ['3135100', 'Janaúba', true],
];

export type Area = 'SOUTH_RS' | 'SOUTH_PR' | 'MT' | 'GO' | 'NE';

export const AREA_MUNICIPALITIES: Record<Area, string[]> = {
  SOUTH_RS: ['4314100', '4306106', '4310207', '4317202', '4307005', '4304705'],
  SOUTH_PR: ['4119905', '4104808', '4127700', '4109401'],
  MT: ['5107602', '5107925', '5105259', '5107040'],
  GO: ['5218805', '5211909', '5208707'],
  NE: ['2918407', '2914604', '2910800', '2933307', '2903201', '2919553', '2611101', '2613909', '2606002', '2604106', '2311306', '2304202', '2305506', '2313302', '3143302', '3135100'],
};

export interface ProducerSpec {
  key: string;
  cnpjBase: number;
  name: string;
  plant: string;
  area: Area;
  regime: 'AD_VALOREM' | 'SPECIAL_PER_M3';
  farmers: number;
  /** Feedstock its family farmers grow, with the share of farmers growing each. */
  crops: Array<[string, number]>;
  salesPerMonth: number;
  ownProduction: boolean;
}

export const PRODUCERS: ProducerSpec[] = [
  { key: 'rs', cnpjBase: 41_200_001, name: 'Biodiesel Planalto Gaúcho S.A.', plant: '4314100', area: 'SOUTH_RS', regime: 'SPECIAL_PER_M3', farmers: 90, crops: [['SOYBEAN', 0.85], ['CANOLA', 1]], salesPerMonth: 24, ownProduction: false },
  { key: 'pr', cnpjBase: 41_200_002, name: 'Campos Gerais Óleos e Biodiesel Ltda.', plant: '4119905', area: 'SOUTH_PR', regime: 'SPECIAL_PER_M3', farmers: 70, crops: [['SOYBEAN', 0.9], ['SUNFLOWER', 1]], salesPerMonth: 20, ownProduction: false },
  { key: 'mt', cnpjBase: 41_200_003, name: 'Bioenergia do Cerrado Mato-Grossense S.A.', plant: '5107602', area: 'MT', regime: 'SPECIAL_PER_M3', farmers: 60, crops: [['SOYBEAN', 0.8], ['COTTONSEED', 1]], salesPerMonth: 26, ownProduction: true },
  { key: 'go', cnpjBase: 41_200_004, name: 'Goiás Biocombustíveis Ltda.', plant: '5218805', area: 'GO', regime: 'AD_VALOREM', farmers: 50, crops: [['SOYBEAN', 1]], salesPerMonth: 18, ownProduction: true },
  { key: 'ba', cnpjBase: 41_200_005, name: 'Biodiesel do Vale do São Francisco S.A.', plant: '2918407', area: 'NE', regime: 'SPECIAL_PER_M3', farmers: 80, crops: [['CASTOR_BEAN', 0.6], ['SOYBEAN', 0.8], ['PEANUT', 1]], salesPerMonth: 16, ownProduction: false },
  { key: 'ce', cnpjBase: 41_200_006, name: 'Sertão Central Biodiesel Ltda.', plant: '2311306', area: 'NE', regime: 'SPECIAL_PER_M3', farmers: 70, crops: [['CASTOR_BEAN', 0.75], ['COTTONSEED', 1]], salesPerMonth: 14, ownProduction: false },
];

export interface OrganizationSpec {
  cnpjBase: number;
  name: string;
  kind: 'COOPERATIVE' | 'ASSOCIATION';
  municipality: string;
  members: number;
  familyFarmerMembers: number;
  /** The producers that buy from it, with the feedstock. */
  buyers: Array<[string, string]>;
  registrationUntil: string;
}

export const ORGANIZATIONS: OrganizationSpec[] = [
  { cnpjBase: 52_300_001, name: 'Cooperativa Agropecuária do Alto Uruguai', kind: 'COOPERATIVE', municipality: '4307005', members: 320, familyFarmerMembers: 291, buyers: [['rs', 'SOYBEAN']], registrationUntil: '2027-12-31' },
  { cnpjBase: 52_300_002, name: 'Cooperativa Tritícola de Cruz Alta', kind: 'COOPERATIVE', municipality: '4306106', members: 210, familyFarmerMembers: 168, buyers: [['rs', 'SOYBEAN']], registrationUntil: '2027-12-31' },
  { cnpjBase: 52_300_003, name: 'Cooperativa Agroindustrial dos Campos Gerais', kind: 'COOPERATIVE', municipality: '4119905', members: 180, familyFarmerMembers: 150, buyers: [['pr', 'SOYBEAN']], registrationUntil: '2027-12-31' },
  // Below the 60% family-farmer share (art. 4º VI–VII): its sales do not count.
  { cnpjBase: 52_300_004, name: 'Cooperativa Mista de Lucas do Rio Verde', kind: 'COOPERATIVE', municipality: '5105259', members: 150, familyFarmerMembers: 78, buyers: [['mt', 'SOYBEAN']], registrationUntil: '2027-12-31' },
  { cnpjBase: 52_300_005, name: 'Associação dos Produtores Familiares de Jataí', kind: 'ASSOCIATION', municipality: '5211909', members: 60, familyFarmerMembers: 60, buyers: [['go', 'SOYBEAN']], registrationUntil: '2027-12-31' },
  { cnpjBase: 52_300_006, name: 'Cooperativa dos Agricultores Familiares do Sertão de Irecê', kind: 'COOPERATIVE', municipality: '2914604', members: 480, familyFarmerMembers: 465, buyers: [['ba', 'CASTOR_BEAN'], ['rs', 'CASTOR_BEAN'], ['mt', 'CASTOR_BEAN']], registrationUntil: '2027-12-31' },
  { cnpjBase: 52_300_007, name: 'Cooperativa de Mamona do Vale do São Francisco', kind: 'COOPERATIVE', municipality: '2611101', members: 260, familyFarmerMembers: 240, buyers: [['ba', 'CASTOR_BEAN'], ['pr', 'CASTOR_BEAN'], ['go', 'CASTOR_BEAN']], registrationUntil: '2026-03-31' },
  { cnpjBase: 52_300_008, name: 'Associação Comunitária dos Agricultores de Tauá', kind: 'ASSOCIATION', municipality: '2313302', members: 85, familyFarmerMembers: 85, buyers: [['ce', 'CASTOR_BEAN']], registrationUntil: '2027-12-31' },
  { cnpjBase: 52_300_009, name: 'Cooperativa Agrícola do Sertão Central', kind: 'COOPERATIVE', municipality: '2311306', members: 190, familyFarmerMembers: 176, buyers: [['ce', 'CASTOR_BEAN']], registrationUntil: '2027-12-31' },
  { cnpjBase: 52_300_010, name: 'Associação dos Agricultores Familiares de Janaúba', kind: 'ASSOCIATION', municipality: '3135100', members: 45, familyFarmerMembers: 44, buyers: [['ba', 'CASTOR_BEAN']], registrationUntil: '2027-12-31' },
];

/**
 * Minimum prices per kg by feedstock and year. Illustrative demo figures, not the official
 * PGPAF prices (Decreto 5.996/2006): the source says so.
 */
export const MINIMUM_PRICES: Array<[string, string, string, string]> = [
  ['SOYBEAN', '2025-01-01', '2025-12-31', '2.10'], ['SOYBEAN', '2026-01-01', '2026-12-31', '2.25'],
  ['CASTOR_BEAN', '2025-01-01', '2025-12-31', '2.60'], ['CASTOR_BEAN', '2026-01-01', '2026-12-31', '2.80'],
  ['CANOLA', '2025-01-01', '2026-12-31', '2.30'],
];
export const MINIMUM_PRICE_SOURCE = 'Demonstração: valores ilustrativos, não são os preços mínimos oficiais do PGPAF (Decreto 5.996/2006)';

/** Market price per kg a farmer or cooperative is paid, by feedstock (demo figures). */
export const PRICE: Record<string, number> = { SOYBEAN: 2.45, CANOLA: 2.55, SUNFLOWER: 2.35, COTTONSEED: 1.4, CASTOR_BEAN: 3.3, PEANUT: 3.6 };
/** Typical lot of a family farmer, kg. */
export const FARMER_LOT: Record<string, [number, number]> = { SOYBEAN: [4_000, 22_000], CANOLA: [3_000, 12_000], SUNFLOWER: [3_000, 10_000], COTTONSEED: [5_000, 20_000], CASTOR_BEAN: [600, 4_000], PEANUT: [800, 3_000] };

export const FIRST_NAMES = ['Maria', 'José', 'Ana', 'João', 'Antônio', 'Francisca', 'Francisco', 'Adriana', 'Carlos', 'Juliana', 'Paulo', 'Márcia', 'Pedro', 'Aline', 'Lucas', 'Sandra', 'Luiz', 'Camila', 'Marcos', 'Patrícia', 'Raimundo', 'Luzia', 'Sebastião', 'Terezinha', 'Valdir', 'Ivone', 'Edson', 'Cleusa', 'Severino', 'Rosângela'];
export const SOUTH_SURNAMES = ['Schneider', 'Weber', 'Zanella', 'Bortolini', 'Kunz', 'Dalmolin', 'Fontana', 'Rossetto', 'Klein', 'Scherer', 'Tonin', 'Bianchi'];
export const COMMON_SURNAMES = ['da Silva', 'dos Santos', 'Oliveira', 'Souza', 'Pereira', 'Lima', 'Ferreira', 'Alves', 'Rodrigues', 'Gomes', 'Ribeiro', 'Carvalho', 'Barbosa', 'Nascimento', 'Araújo', 'Cavalcante', 'Sousa', 'Batista'];

export const THIRD_PARTIES: Record<Area, string[]> = {
  SOUTH_RS: ['Cerealista Planalto Ltda.', 'Agrograos Missões S.A.', 'Comercial de Grãos Alto Jacuí Ltda.'],
  SOUTH_PR: ['Cerealista Campos Gerais Ltda.', 'Grãos do Oeste Paranaense S.A.'],
  MT: ['Trading Cerrado Grãos S.A.', 'Agrícola Vale do Rio Vermelho Ltda.', 'Armazéns Gerais Sorriso Ltda.'],
  GO: ['Grãos Sudoeste Goiano Ltda.', 'Comercial Agrícola Rio Verde S.A.'],
  NE: ['Cerealista Oeste Baiano Ltda.', 'Óleos Vegetais do Nordeste S.A.', 'Algodoeira Sertaneja Ltda.'],
};
