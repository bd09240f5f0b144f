import { registerEnumType } from 'type-graphql';
import {
  BiodieselOrigin, FomentoKind, Feedstock, Market, OrganizationKind, PurchasePurpose, RateCategory, Region,
  RegistrationKind, Role, SealEventKind, SupplierKind, TaxPeriodStatus, TaxRegime,
} from '../../law/types';

registerEnumType(Region, { name: 'Region', description: 'Brazilian macro-region, from the first digit of the IBGE code.' });
registerEnumType(Feedstock, {
  name: 'Feedstock',
  description: 'Raw material species (Lei 11.116/2005, art. 5º §1º: coefficients may differ by species).',
  valuesConfig: { PALM: { description: 'Fruit, stone or kernel of palm (fruto, caroço ou amêndoa de palma).' } },
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
registerEnumType(RegistrationKind, { name: 'RegistrationKind', description: 'DAP (issued until 2022-10-31) or CAF (Decreto 10.527/2020, art. 2º IV).' });
registerEnumType(OrganizationKind, { name: 'OrganizationKind', description: 'Family-farming organization (Decreto 10.527/2020, art. 2º V).' });
registerEnumType(SupplierKind, { name: 'SupplierKind', description: 'Who supplied a lot of raw material.' });
registerEnumType(PurchasePurpose, { name: 'PurchasePurpose', description: 'art. 3º §2 I: a) raw material for biodiesel; b) other products (priority region only).' });
registerEnumType(BiodieselOrigin, { name: 'BiodieselOrigin', description: 'Own production, or imported biodiesel (art. 6º §5).' });
registerEnumType(Market, { name: 'Market', description: 'Domestic sale (taxed) or export (no PIS/Cofins).' });
registerEnumType(SealEventKind, { name: 'SealEventKind', description: 'What happened to a Selo grant (Decreto 10.527/2020, art. 4º I).' });
registerEnumType(FomentoKind, { name: 'FomentoKind', description: 'art. 3º §2 I c; art. 2º VII.' });
registerEnumType(TaxPeriodStatus, { name: 'TaxPeriodStatus', description: 'A CLOSED month keeps its snapshot and refuses changes.' });
registerEnumType(TaxRegime, { name: 'TaxRegime', description: 'Lei 11.116/2005: art. 3º ad valorem (default) or art. 4º special regime per m³ (elected yearly).' });
registerEnumType(Role, { name: 'Role', description: 'Access role (DESIGN §4).' });
