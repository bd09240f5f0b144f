import { registerEnumType } from 'type-graphql';
import { ApportionmentMethod, CbsCreditKind, ClaimKind, Contribution, CreditKind, CreditProduct, CreditStatus, CreditSupplier, IncidenceRegime, RevenueGroup } from '../../services/credit.service';

registerEnumType(CreditSupplier, {
  name: 'CreditSupplier',
  description: 'Who sold, as the non-cumulative credit tells suppliers apart: only a legal entity domiciled in Brazil gives the basic credit (Lei 10.637/2002 and Lei 10.833/2003, art. 3º § 3º I); ABROAD is an import (Lei 10.865/2004, art. 15).',
  valuesConfig: {
    NATURAL_PERSON: { description: 'A natural person, family farmers included: no basic credit (art. 3º § 3º I).' },
    COOPERATIVE: { description: 'A cooperative, a legal entity domiciled in Brazil.' },
    COMPANY: { description: 'A company or other legal entity domiciled in Brazil.' },
    ABROAD: { description: 'Domiciled abroad: an import (Lei 10.865/2004, art. 15).' },
  },
});
registerEnumType(CreditProduct, {
  name: 'CreditProduct',
  description: 'What was bought, as the credit tells goods apart.',
  valuesConfig: {
    IN_NATURA: { description: 'In-natura vegetable raw material: suspended from legal entities (Lei 12.546/2011, art. 47-A), no credit.' },
    SOYBEAN: { description: 'Soybeans (12.01): suspended (Lei 12.865/2013, art. 29), no credit.' },
    VEGETABLE_OIL: { description: 'Vegetable oil: by the supplier\'s CST.' },
    ANIMAL_FAT: { description: 'Animal fat (tallow): by the supplier\'s CST.' },
    INPUT: { description: 'Another input consumed in production (methanol, catalysts): by the supplier\'s CST.' },
    FUEL_INPUT: { description: 'Single-phase goods consumed as inputs (fuel): the general rates, CST 04 included.' },
    B100_FOR_RESALE: { description: 'Biodiesel bought for resale: an open choice an ADMIN publishes (credit-choice).' },
  },
});
registerEnumType(RevenueGroup, {
  name: 'RevenueGroup',
  description: 'The revenue a credit serves, the first digit of COD_CRED (EFD table 4.3.6).',
  valuesConfig: {
    TAXED_DOMESTIC: { description: 'Group 100: taxed domestic revenue; the credit is only deducted.' },
    UNTAXED_DOMESTIC: { description: 'Group 200: domestic revenue at R$ 0,00 (category III, the 2026 window), kept under Lei 11.033/2004, art. 17.' },
    EXPORT: { description: 'Group 300: export revenue (Lei 10.637/2002, art. 5º).' },
  },
});
registerEnumType(ApportionmentMethod, {
  name: 'ApportionmentMethod',
  description: 'How common credits are split among the revenue groups, fixed for the calendar year (Lei 10.637/2002, art. 3º §§ 8º–9º).',
  valuesConfig: {
    DIRECT_ALLOCATION: { description: 'Each purchase allocated to the revenue it served (art. 3º § 8º I).' },
    REVENUE_RATIO: { description: 'By the month\'s gross-revenue ratio among the groups (art. 3º § 8º II).' },
  },
});
registerEnumType(CreditStatus, {
  name: 'CreditStatus',
  description: 'Whether a credit is computed.',
  valuesConfig: {
    CREDIT: { description: 'Computed.' },
    NO_CREDIT: { description: 'The law gives none; `reason` says why.' },
    AWAITING_PARAMETER: { description: 'A figure or choice no source gives; computed once an ADMIN publishes it.' },
    AWAITING_FACT: { description: 'A fact of the purchase is not recorded; `awaiting` names it.' },
  },
});
registerEnumType(CreditKind, {
  name: 'CreditKind',
  description: 'The last two digits of COD_CRED (table 4.3.6).',
  valuesConfig: {
    BASIC: { description: 'x01: the basic rates on acquisitions in Brazil.' },
    IMPORT: { description: 'x08: on imports (Lei 10.865/2004, art. 15).' },
    PRESUMED: { description: 'x07: the Lei 12.865/2013 art. 31 presumed credit (an Interpretation, docs/LAW.md).' },
  },
});
registerEnumType(Contribution, { name: 'Contribution', description: 'PIS/Pasep or Cofins.', valuesConfig: { PIS: { description: 'PIS/Pasep.' }, COFINS: { description: 'Cofins.' } } });
registerEnumType(ClaimKind, {
  name: 'CreditClaimKind',
  description: 'A PER/DCOMP (Lei 11.116/2005, art. 16 I–II).',
  valuesConfig: { REFUND: { description: 'Cash refund (ressarcimento).' }, OFFSET: { description: 'Offset against other taxes (compensação, DCOMP).' } },
});
registerEnumType(IncidenceRegime, {
  name: 'IncidenceRegime',
  description: 'The regime of incidence of PIS/Pasep and Cofins for a calendar year (EFD 0110 COD_INC_TRIB), irrevocable for the year.',
  valuesConfig: {
    NON_CUMULATIVE: { description: 'Non-cumulative (Lei 10.637/2002; Lei 10.833/2003): credits deducted; EFD COD_CONT 03.' },
    CUMULATIVE: { description: 'Cumulative (Lei 10.637/2002 art. 8º; Lei 10.833/2003 art. 10): no credits; EFD COD_CONT 53.' },
  },
});
registerEnumType(CbsCreditKind, {
  name: 'CbsCreditKind',
  description: 'The kind of a CBS credit from 2027.',
  valuesConfig: {
    ACQUISITION: { description: 'The CBS the acquisition\'s invoice states (LC 214/2025, art. 47).' },
    PRESUMED: { description: 'The presumed credit on a purchase from a rural producer who is not a contributor (LC 214/2025, art. 168 with art. 164).' },
  },
});
