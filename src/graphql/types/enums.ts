import { registerEnumType } from 'type-graphql';
import {
  BiodieselOrigin, FomentoKind, Feedstock, FuelTax, FuelTaxStatus, Market, OrganizationKind, OwnProductionValuation, PurchasePurpose, RateCategory, Region,
  RegistrationKind, Role, SealBaseRule, SealComplianceModel, SealEventKind, SealWeightingFactor, SupplierKind, TaxPeriodStatus, TaxRegime,
  RecordState,
} from '../../law/types';

registerEnumType(Region, {
  name: 'Region',
  description: 'Brazilian macro-region, of the state (UF) named by the first two digits of the IBGE code.',
  valuesConfig: {
    NORTH: { description: 'Norte (IBGE codes 1x): priority region (Decreto 10.527/2020, art. 6º).' },
    NORTHEAST: { description: 'Nordeste (IBGE codes 2x): priority region (Decreto 10.527/2020, art. 6º).' },
    SOUTHEAST: { description: 'Sudeste (IBGE codes 3x).' },
    SOUTH: { description: 'Sul (IBGE codes 4x).' },
    CENTER_WEST: { description: 'Centro-Oeste (IBGE codes 5x).' },
  },
});
registerEnumType(Feedstock, {
  name: 'Feedstock',
  description: 'Raw material species (Lei 11.116/2005, art. 5º §1º: coefficients may differ by species).',
  valuesConfig: {
    SOYBEAN: { description: 'Soybean (soja): not diversified raw material for the Selo (Portaria MDA nº 28/2024, factor f).' },
    CASTOR_BEAN: { description: 'Castor bean (mamona): art. 6º, I when produced in the priority region.' },
    PALM: { description: 'Fruit, stone or kernel of palm (fruto, caroço ou amêndoa de palma).' },
    COTTONSEED: { description: 'Cottonseed (caroço de algodão).' },
    SUNFLOWER: { description: 'Sunflower (girassol).' },
    CANOLA: { description: 'Canola.' },
    PEANUT: { description: 'Peanut (amendoim).' },
    MACAUBA: { description: 'Macaúba palm fruit (Acrocomia aculeata); not the palm of art. 6º, I.' },
    BEEF_TALLOW: { description: 'Beef tallow (sebo bovino).' },
    USED_COOKING_OIL: { description: 'Used cooking oil (óleo de fritura usado).' },
    SOYBEAN_OIL: { description: 'Soybean oil (óleo de soja): like soybeans, not diversified raw material for the Selo (Portaria MDA nº 28/2024, factor f).' },
    LIVE_ANIMALS: { description: 'Live animals (animais vivos): not diversified raw material for the Selo (Portaria MDA nº 28/2024, factor f).' },
    OTHER: { description: 'Any other raw material.' },
  },
});
registerEnumType(RateCategory, {
  name: 'RateCategory',
  description: 'The four rate categories of Decreto 10.527/2020. Priority region = North, Northeast or Semiárido.',
  valuesConfig: {
    GENERAL: { description: 'art. 5º: general coefficient' },
    CASTOR_PALM_PRIORITY_REGION: { description: 'art. 6º, I: castor bean or palm produced in the priority region' },
    FAMILY_FARMING: { description: 'art. 6º, II: raw material bought from Pronaf family farming' },
    FAMILY_FARMING_PRIORITY_REGION: { description: 'art. 6º, III: raw material produced in the priority region, bought from Pronaf family farming' },
  },
});
registerEnumType(RegistrationKind, {
  name: 'RegistrationKind',
  description: 'DAP (issued until 2022-10-31) or CAF (Decreto 10.527/2020, art. 2º IV).',
  valuesConfig: {
    DAP: { description: 'Declaração de Aptidão ao Pronaf (issued until 2022-10-31; later ones yield DAP_ISSUED_AFTER_CUTOFF).' },
    CAF: { description: 'Cadastro Nacional da Agricultura Familiar, which replaces the DAP.' },
  },
});
registerEnumType(OrganizationKind, {
  name: 'OrganizationKind',
  description: 'Family-farming organization (Decreto 10.527/2020, art. 2º V).',
  valuesConfig: {
    COOPERATIVE: { description: 'Agricultural cooperative: counts for the Selo and, when habilitated, for the family-farming rate categories (art. 6º §2).' },
    ASSOCIATION: { description: 'Association: counts for the Selo (art. 2º V) but not for the rate categories of art. 6º, II and III (see docs/LAW.md).' },
  },
});
registerEnumType(SupplierKind, {
  name: 'SupplierKind',
  description: 'Who supplied a lot of raw material.',
  valuesConfig: {
    FAMILY_FARMER: { description: 'A family farmer (familyFarmer set); counts when holding a valid DAP or CAF on the purchase date (art. 2º IV).' },
    COOPERATIVE: { description: 'A family-farming cooperative (organization set); counts when habilitated on the purchase date (art. 4º VI-VII).' },
    ASSOCIATION: { description: 'A family-farming association (organization set): Selo spending only, never art. 6º, II-III.' },
    THIRD_PARTY: { description: 'Any other supplier (supplierName): not family-farming spending.' },
    OWN_PRODUCTION: { description: 'Raw material the producer grew itself: no cost; valued at the period\'s average third-party price per kg (art. 6º §4).' },
  },
});
registerEnumType(PurchasePurpose, {
  name: 'PurchasePurpose',
  description: 'art. 3º §2 I: a) raw material for biodiesel; b) other products (priority region only).',
  valuesConfig: {
    BIODIESEL_FEEDSTOCK: { description: 'Raw material for biodiesel (art. 3º §2 I a); enters the monthly rate mix.' },
    OTHER_PRODUCT: { description: 'Another family-farming product (art. 3º §2 I b): counts for the Selo only in the priority region.' },
  },
});
registerEnumType(BiodieselOrigin, {
  name: 'BiodieselOrigin',
  description: 'Own production, or imported biodiesel (art. 6º §5).',
  valuesConfig: {
    OWN_PRODUCTION: { description: 'Biodiesel the producer made: taxed at the blended rate of its period (art. 6º §3).' },
    IMPORTED: { description: 'Imported biodiesel: always the GENERAL rate (art. 6º §5).' },
  },
});
registerEnumType(Market, {
  name: 'Market',
  description: 'Domestic sale (taxed) or export (no PIS/Cofins).',
  valuesConfig: {
    DOMESTIC: { description: 'Sold on the domestic market: PIS/Pasep and Cofins due.' },
    EXPORT: { description: 'Exported: no PIS/Cofins, and its value leaves the Selo base (art. 3º §3º III).' },
  },
});
registerEnumType(SealEventKind, {
  name: 'SealEventKind',
  description: 'What happened to a Selo grant (Decreto 10.527/2020, art. 4º I).',
  valuesConfig: {
    SUSPENDED: { description: 'The Selo is not regular from effectiveOn until a REINSTATED.' },
    REINSTATED: { description: 'Ends a suspension from effectiveOn.' },
    CANCELLED: { description: 'The grant ends on effectiveOn, for good.' },
    RENEWED: { description: 'Moves the grant\'s end of validity to validUntil.' },
  },
});
registerEnumType(FomentoKind, {
  name: 'FomentoKind',
  description: 'Kind of fomento spending for family farming (Decreto 10.527/2020, art. 3º §2 I c; art. 2º VII).',
  valuesConfig: {
    TECHNICAL_ASSISTANCE: { description: 'Technical assistance and training of family farmers.' },
    DONATION: { description: 'Donation of inputs or goods to family farmers.' },
    INVESTMENT: { description: 'Investment in family farmers\' production.' },
    OTHER: { description: 'Other fomento spending.' },
  },
});
registerEnumType(RecordState, {
  name: 'RecordState',
  description: 'A record as its fiscal document stands: a cancelled NF-e\'s records are kept and audited but counted by no computation.',
  valuesConfig: {
    ACTIVE: { description: 'Counted: the document stands.' },
    CANCELLED: { description: 'The NF-e was cancelled (cancelDocument, or the cancellation event tpEvento 110111): kept, audited, counted nowhere from then on.' },
  },
});
registerEnumType(TaxPeriodStatus, {
  name: 'TaxPeriodStatus',
  description: 'A CLOSED month keeps its snapshot and refuses changes.',
  valuesConfig: {
    OPEN: { description: 'Computed on demand; its records may change.' },
    CLOSED: { description: 'Closed: records of the month are refused with CONFLICT/PERIOD_CLOSED until reopened.' },
  },
});
registerEnumType(TaxRegime, {
  name: 'TaxRegime',
  description: 'Lei 11.116/2005: art. 3º ad valorem (default) or art. 4º special regime per m³ (elected yearly).',
  valuesConfig: {
    AD_VALOREM: { description: 'Art. 3º: 6,15% PIS/Pasep and 28,32% Cofins on gross revenue; the coefficients do not apply.' },
    SPECIAL_PER_M3: { description: 'Art. 4º: fixed amounts per m³, reduced by the coefficients of art. 5º.' },
  },
});
registerEnumType(Role, {
  name: 'Role',
  description: 'Access role, the `role` claim of the token.',
  valuesConfig: {
    ADMIN: { description: 'Everything, including law versions, Selo grants and reference data.' },
    AUDITOR: { description: 'Reads everything, writes nothing.' },
    PRODUCER: { description: 'Reads and writes only the records of its own producer (producerId claim).' },
  },
});
registerEnumType(OwnProductionValuation, {
  name: 'OwnProductionValuation',
  description: 'How own production used in a month is valued for the blend (Decreto 10.527/2020, art. 6º §4º; docs/LAW.md).',
  valuesConfig: {
    THIRD_PARTY_ACQUISITIONS: { description: 'At the average price per kg of the raw material acquired from third parties in the month (art. 6º §4º, literally).' },
    THIRD_PARTY_LOTS_USED: { description: 'None acquired in the month: at the average price per kg of the third-party lots used in it (Interpretation; OWN_PRODUCTION_VALUED_BY_LOTS_USED).' },
    QUANTITY: { description: 'Only own production used: the weights are kilograms, whose proportions are exact (OWN_PRODUCTION_VALUED_BY_QUANTITY).' },
  },
});
registerEnumType(FuelTax, {
  name: 'FuelTax',
  description: 'A single-phase tax on fuels, biodiesel (B100) included, levied once per m³ (Lei Complementar 214/2025, arts. 172–175).',
  valuesConfig: {
    CBS: { description: 'Contribuição sobre Bens e Serviços, from 2027 in place of PIS/Pasep and Cofins (EC 132/2023, ADCT art. 126); rate set by the federal Executive (art. 174 III b).' },
    IBS: { description: 'Imposto sobre Bens e Serviços; rate set by the Comitê Gestor do IBS (art. 174 III a).' },
  },
});
registerEnumType(FuelTaxStatus, {
  name: 'FuelTaxStatus',
  description: 'Whether a single-phase tax\'s amount is known.',
  valuesConfig: {
    COMPUTED: { description: 'The rate per m³ is published: volume × rate.' },
    RATE_NOT_PUBLISHED: { description: 'No rate per m³ is published yet (as known on asKnownOn): the volumes and the formula are shown, the amount is null. Data, not an error.' },
  },
});
registerEnumType(SealComplianceModel, {
  name: 'SealComplianceModel',
  description: 'How a year\'s Selo spending is measured, by what was known when (docs/LAW.md).',
  valuesConfig: {
    FLAT: { description: 'Counted spending against the flat minimum of the plant\'s region (Portaria MAPA 144/2019, secondary): years up to 2023, and 2024 as known before 2024-06-28.' },
    WEIGHTED: { description: 'Each item times its weighting factors against the minimum weighted percentage (Portaria MDA nº 28/2024, published 2024-06-28): years from 2024.' },
  },
});
registerEnumType(SealBaseRule, {
  name: 'SealBaseRule',
  description: 'What the base of the Selo\'s minimum share is made of, by the wording in force for the year (Decreto 10.527/2020, art. 3º §3º II–III; Portaria MDA nº 28/2024).',
  valuesConfig: {
    RAW_MATERIAL_ACQUISITIONS: { description: 'Original §3º II (from 2020-10-23): the year\'s raw-material acquisitions, less the part proportional to the exported volume.' },
    BIODIESEL_SOLD: { description: '§3º II as amended by Decreto 10.708/2021: the value of own biodiesel sold, less the part proportional to the exported volume.' },
    DOMESTIC_SALES: { description: 'From 2024 (Portaria MDA nº 28/2024): the gross value of own biodiesel sold on the domestic market, the sum of those sales.' },
  },
});
registerEnumType(SealWeightingFactor, {
  name: 'SealWeightingFactor',
  description: 'A weighting factor of Selo spending (Portaria MDA nº 28/2024, p. 40), one per alínea; a, b, d, e and f multiply together (§2º), c applies alone. Each is a dated parameter (selo-weighting-factor) an ADMIN may publish.',
  valuesConfig: {
    ORGANIZATION_ABOVE_75: { description: 'a) open, no published figure (presumed: acquisitions from organizations with more than 75% family-farmer members).' },
    ORGANIZATION_UP_TO_75: { description: 'b) × 1,1: acquisitions from family-farming organizations whose members are up to 75% family farmers, any region.' },
    FOMENTO_PRIORITY_REGION: { description: 'c) × 30: fomento in the Norte, Nordeste and Semiárido; does not combine.' },
    ACQUISITION_PRIORITY_REGION: { description: 'd) × 4: acquisitions in the Norte, Nordeste and Semiárido (origin municipality on the acquisition date).' },
    ACQUISITION_CENTER_WEST_SOUTHEAST: { description: 'e) × 3: acquisitions in the Centro-Oeste or Sudeste (outside the Semiárido).' },
    DIVERSIFIED_RAW_MATERIAL: { description: 'f) × 2: diversified raw material, anything but soybeans, soybean oil and live animals.' },
  },
});
