/**
 * The saved example operations GraphiQL opens with, one tab each: the questions analysts and
 * producers' tax teams ask most. Their variables point at the demo dataset as `npm start` loads
 * it into a fresh database (src/database/demo-data.ts: producer 1, Biodiesel Planalto Gaúcho;
 * purchase 5, from a farmer whose DAP had expired, under a contract signed after it).
 * test/e2e/graphiql-examples.test.ts runs them there and on records made through the API.
 */
export interface ExampleOperation {
  /** Tab title (the operation name). */
  name: string;
  query: string;
  variables: Record<string, unknown>;
}

const finding = 'code message legalBasis';

export const EXAMPLE_OPERATIONS: ExampleOperation[] = [
  {
    name: 'ProducerMonth',
    query: `# A producer's month: PIS/Pasep and Cofins due (Lei 11.116/2005 arts. 3º-5º), cut into
# segments — runs of days over which the rules in force and the Selo standing do not change —
# each with its mix of rate categories weighted by the cost of the raw material used
# (Decreto 10.527/2020, art. 6º §§3º-4º). April 2026 has two segments: the zero window
# begins on the 7th (art. 5º §§2º-4º). regimeBasis says which election governs the year;
# each segment's legalBasis, the provisions it applied (and, ad valorem, pisRate/cofinsRate).
query ProducerMonth($producerId: ID!, $year: Int!, $month: Int!, $asKnownOn: Date) {
  taxPeriod(producerId: $producerId, year: $year, month: $month, asKnownOn: $asKnownOn) {
    producer { id legalName }
    year
    month
    asKnownOn
    status
    regime
    regimeBasis
    feedstockCost
    ownProductionPricePerKg
    domesticVolumeM3
    importedVolumeM3
    exportedVolumeM3
    segments {
      from
      to
      sealRegular
      mix { category cost share coefficient pisPerM3 cofinsPerM3 legalBasis }
      blendedPisPerM3
      blendedCofinsPerM3
      ownProductionVolumeM3
      importedVolumeM3
      domesticRevenue
      pisRate
      cofinsRate
      pisDue
      cofinsDue
      legalBasis
    }
    pisDue
    cofinsDue
    totalDue
    warnings { ${finding} }
  }
}
`,
    variables: { producerId: '1', year: 2026, month: 4 },
  },
  {
    name: 'SealComplianceOfYear',
    query: `# The Selo compliance of a year (Decreto 10.527/2020, art. 3º §2 I and §3º): counted
# family-farming spending against the base, the minimum share for the plant's region, the
# priority-region share, and every family-farming purchase or fomento expense that does not
# count, with its findings.
query SealComplianceOfYear($producerId: ID!, $year: Int!) {
  sealCompliance(producerId: $producerId, year: $year) {
    producer { id legalName plantMunicipality { name state region } }
    year
    asKnownOn
    salesRevenue
    exportedValue
    base
    familyFarmingAcquisitions
    otherProductAcquisitions
    fomento
    countedTotal
    achievedShare
    requiredShare
    shortfall
    priorityRegionShare
    requiredPriorityRegionShare
    compliant
    excluded { id amount findings { ${finding} } }
    findings { ${finding} }
  }
}
`,
    variables: { producerId: '1', year: 2025 },
  },
  {
    name: 'RulesInForceAsKnownOn',
    query: `# The coefficient rules in force on a date as they were known on another, beside the same
# date as known today (the law is dated data: docs/LAW.md §1). Mid-June 2026 as known on
# 2026-05-20 was under the general rules — the zero window then ended on 2026-05-31; as known
# today the window runs to 2026-07-31 (Decreto 10.527/2020, art. 5º §§2º-4º).
query RulesInForceAsKnownOn($on: Date!, $asKnownOn: Date!) {
  asKnownThen: coefficientRules(on: $on, asKnownOn: $asKnownOn) {
    category coefficient pisPerM3 cofinsPerM3 validFrom validUntil publishedOn legalBasis
  }
  asKnownToday: coefficientRules(on: $on) {
    category coefficient pisPerM3 cofinsPerM3 validFrom validUntil publishedOn legalBasis
  }
}
`,
    variables: { on: '2026-06-15', asKnownOn: '2026-05-20' },
  },
  {
    name: 'WhyPurchaseDidNotCount',
    query: `# Why a purchase did not count: selo says whether it counts for the Selo targets of its
# year and lists every finding (the same as sealCompliance.excluded gives for its id); then the
# facts behind them: its supplier's standing on the purchase date (a valid DAP or CAF, art. 2º IV;
# an organization's habilitation, art. 4º VI-VII), where the raw material came from (priority
# region), and the conformity of its contract (art. 3º §2 II-III).
query WhyPurchaseDidNotCount($purchaseId: ID!, $purchasedOn: Date!) {
  purchase(id: $purchaseId) {
    id
    selo { year counts kind priorityRegion findings { ${finding} } }
    purchasedOn
    feedstock
    quantityKg
    cost
    purpose
    supplierKind
    familyFarmingOrigin
    originMunicipality { name state priorityRegion }
    familyFarmer {
      name
      eligibleOn(date: $purchasedOn)
      registrations { kind number validFrom validUntil }
    }
    organization {
      name
      kind
      habilitation(on: $purchasedOn) { habilitated findings { ${finding} } }
    }
    contract {
      signedOn
      validFrom
      validUntil
      feedstock
      pricePerKg
      technicalAssistance
      conformity { conforming findings { ${finding} } }
    }
  }
}
`,
    variables: { purchaseId: '5', purchasedOn: '2025-07-13' },
  },
];
