import { registerEnumType } from 'type-graphql';
import { ApportionmentMethod, ClaimKind, Contribution, CreditKind, CreditProduct, CreditStatus, CreditSupplier, RevenueGroup } from '../../services/credit.service';

registerEnumType(CreditSupplier, {
  name: 'CreditSupplier',
  description: 'Who sold, as the non-cumulative credit tells suppliers apart: only a legal entity domiciled in Brazil gives the basic credit (Lei 10.637/2002 and Lei 10.833/2003, art. 3º § 3º I); ABROAD is an import (Lei 10.865/2004, art. 15).',
});
registerEnumType(CreditProduct, {
  name: 'CreditProduct',
  description: 'What was bought, as the credit tells goods apart: IN_NATURA suspended from legal entities (Lei 12.546/2011, art. 47-A), SOYBEAN suspended (Lei 12.865/2013, art. 29), oils, fats and inputs by the supplier\'s CST, FUEL_INPUT at the general rates, B100_FOR_RESALE an open choice (credit-choice).',
});
registerEnumType(RevenueGroup, {
  name: 'RevenueGroup',
  description: 'The revenue a credit serves, the first digit of COD_CRED (EFD table 4.3.6): TAXED_DOMESTIC 1xx (deducted only), UNTAXED_DOMESTIC 2xx (R$ 0,00 sales kept under Lei 11.033/2004, art. 17), EXPORT 3xx (Lei 10.637/2002, art. 5º).',
});
registerEnumType(ApportionmentMethod, {
  name: 'ApportionmentMethod',
  description: 'How common credits are split among the revenue groups, fixed for the calendar year (Lei 10.637/2002, art. 3º §§ 8º–9º): by direct allocation (I) or the month\'s gross-revenue ratio (II).',
});
registerEnumType(CreditStatus, {
  name: 'CreditStatus',
  description: 'CREDIT computed; NO_CREDIT with its reason; AWAITING_PARAMETER while a figure or choice no source gives is not published by an ADMIN; AWAITING_FACT while a fact of the purchase is not recorded.',
});
registerEnumType(CreditKind, {
  name: 'CreditKind',
  description: 'The last two digits of COD_CRED (table 4.3.6): BASIC 01, IMPORT 08, PRESUMED 07 (Lei 12.865/2013, art. 31).',
});
registerEnumType(Contribution, { name: 'Contribution', description: 'PIS/Pasep or Cofins.' });
registerEnumType(ClaimKind, { name: 'CreditClaimKind', description: 'A PER/DCOMP: REFUND in cash or OFFSET against other taxes (Lei 11.116/2005, art. 16 I–II).' });
