/**
 * GraphiQL's saved examples, one tab each; variables point at the demo data (producer 1, purchase
 * 5), and test/e2e/graphiql-examples.test.ts runs them.
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
# begins on the 7th (art. 5º §§2º-4º). regimeBasis says which election governs the month;
# each segment's legalBasis, the provisions it applied (and, ad valorem, pisRate/cofinsRate).
# ownProductionValuation says how own production was valued (art. 6º §4º and its fallbacks);
# blendPeriod, the earlier month whose blend a month that sold from stock takes. imports is
# the month's imports' PIS/Pasep-Importação and Cofins-Importação (art. 5º §1º), apart from the
# sales; fuelTaxes, from 2027, the CBS (LC 214/2025, arts. 172-175).
query ProducerMonth($producerId: ID!, $year: Int!, $month: Int!, $asKnownOn: Date) {
  taxPeriod(producerId: $producerId, year: $year, month: $month, asKnownOn: $asKnownOn) {
    producer { id legalName }
    year
    month
    asKnownOn
    status
    regime
    regimeBasis
    regimeElection { regime electedOn effectiveYear effectiveFrom }
    feedstockCost
    ownProductionPricePerKg
    ownProductionValuation
    blendPeriod { year month }
    domesticVolumeM3
    importedVolumeM3
    exportedVolumeM3
    segments {
      from
      to
      pisCofinsInForce
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
    imports { volumeM3 pisDue cofinsDue totalDue }
    fuelTaxes { tax status volumeM3 ratePerM3 due }
    warnings { ${finding} }
  }
}
`,
    variables: { producerId: '1', year: 2026, month: 4 },
  },
  {
    name: 'ImportsOfMonth',
    query: `# A producer's imports of biodiesel in a month and their PIS/Pasep-Importação and
# Cofins-Importação: each declaration's volume × the general amounts per m³ in force on its
# customs clearance (Decreto 10.527/2020, art. 5º §1º: R$ 26,41 and 121,59; R$ 0,00 in the 2026
# window, §3º; never the art. 6º amounts, §5º), each rounded half-even to the centavo. The same
# block is TaxPeriod.imports; the records are Producer.imports (recorded with recordImports).
query ImportsOfMonth($producerId: ID!, $year: Int!, $month: Int!) {
  importContributions(producerId: $producerId, year: $year, month: $month) {
    volumeM3
    pisDue
    cofinsDue
    totalDue
    imports { declarationNumber clearedOn volumeM3 pisPerM3 cofinsPerM3 pisDue cofinsDue legalBasis }
  }
  producer(id: $producerId) {
    legalName
    imports(first: 20) { totalCount edges { node { declarationNumber clearedOn volumeM3 } } }
  }
}
`,
    variables: { producerId: '1', year: 2026, month: 9 },
  },
  {
    name: 'MonthsAcross2027',
    query: `# December 2026 and January 2027 side by side, as a dashboard lists months: from 2027
# PIS/Pasep and Cofins are extinct (EC 132/2023, ADCT art. 126, II) and the month answers the
# CBS on biodiesel (LC 214/2025, arts. 172-175): the volume (own production sold on the domestic
# market + imports) × the rate per m³ the federal Executive publishes. Until an ADMIN publishes
# that rate (publishLawParameter, parameter fuel-tax-rate, scope CBS) the month shows the
# volumes, the formula and status RATE_NOT_PUBLISHED with its legal basis: data, not an error.
# Each purchase from 2027 has its CBS credit (the CBS its invoice states, LC 214/2025, art. 47;
# or the presumed credit of art. 168), deducted from the CBS before the PIS/Cofins balances.
query MonthsAcross2027($producerId: ID!) {
  producer(id: $producerId) {
    legalName
    december: taxPeriod(year: 2026, month: 12) { pisDue cofinsDue totalDue fuelTaxes { tax status } }
    january: taxPeriod(year: 2027, month: 1) {
      pisDue
      cofinsDue
      segments { from to pisCofinsInForce legalBasis }
      fuelTaxes {
        tax
        status
        formula
        ownProductionVolumeM3
        importedVolumeM3
        volumeM3
        ratePerM3
        due
        legalBasis
        segments { from to status volumeM3 ratePerM3 due }
      }
      credits { cbsPurchases { purchaseId status kind reason awaiting amount } awaiting }
      net { cbsDue cbsCredits cbsCreditsDeducted cbsOffset cbsNetDue cbsCreditBalance }
      warnings { ${finding} }
    }
  }
}
`,
    variables: { producerId: '1' },
  },
  {
    name: 'SealComplianceOfYear',
    query: `# The Selo compliance of a year (Decreto 10.527/2020, art. 3º §2 I and §3º). From 2024 the
# weighted model (Portaria MDA nº 28/2024): every counted item with its actual value, each
# factor by alínea and its weighted value; requirement 1 against the minimum weighted
# percentage (null until published: MINIMUM_NOT_PUBLISHED, status NOT_ESTABLISHED);
# requirement 2 on actual values in the priority region; requirement 3 (technical assistance);
# and every family-farming purchase or fomento expense that does not count, with its findings.
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
    model
    actualTotal
    status
    minimumShare { requiredShare legalBasis achievedShare weightedTotal requiredAmount shortfall compliant }
    priorityRegion { requiredShare share amount actualTotal shortfall compliant }
    technicalAssistance { compliant contractIds }
    spending { source kind count region semiarid product organizationShare actual factors { factor alinea value } weight weighted findings { code } }
    excluded { id amount findings { ${finding} } }
    findings { ${finding} }
  }
}
`,
    variables: { producerId: '1', year: 2025 },
  },
  {
    name: 'SealPlan',
    query: `# What closes the Selo shortfall of a year (docs/LAW.md): each requirement's shortfall
# (requirement 1 in weighted reais, requirement 2 in actual reais in the priority region), every
# lever with the actual spending that closes it alone, and hypothetical items — here R$ 400 mil of
# castor from Feira de Santana (BA, Semiárido) via the demo's cooperative of Irecê, and R$ 50 mil of
# fomento — evaluated as if they were recorded: the year's verdict and its balance with them.
# Nothing is written. Factors of Portaria MDA nº 28/2024 (b 1,1; c 30; d 4; e 3; f 2; a open);
# while the minimum weighted percentage is not published, requirement 1 is not established.
query SealPlan($producerId: ID!, $year: Int!, $hypothetical: [HypotheticalSpendingInput!]) {
  sealPlan(producerId: $producerId, year: $year, hypothetical: $hypothetical) {
    year
    model
    recorded { countedTotal achievedShare status }
    hypothetical { label counts region semiarid product organizationShare actual factors { alinea value legalBasis } weight weighted findings { ${finding} } }
    withHypothetical {
      countedTotal
      achievedShare
      status
      minimumShare { requiredShare requiredAmount balanceIn shortfall compliant }
      priorityRegion { requiredShare share shortfall compliant }
      balance { broughtIn { fromYear amount deadline } carriedOut { amount toYear } }
      findings { ${finding} }
    }
    minimumShare { weighted met legalBasis }
    priorityRegion { actual met legalBasis }
    levers { kind region diversified viaOrganizationUpTo75 factors { alinea value } weight closesMinimumShare closesPriorityRegion closesBoth }
  }
}
`,
    variables: {
      producerId: '1', year: 2026,
      hypothetical: [
        { kind: 'FAMILY_FARMING_ACQUISITION', amount: '400000', on: '2026-08-01', municipalityCode: '2910800', product: 'CASTOR_BEAN', organizationId: '6', label: 'Mamona de Feira de Santana via cooperativa' },
        { kind: 'FOMENTO', amount: '50000', on: '2026-09-01', municipalityCode: '2914604', label: 'Fomento em Irecê' },
      ],
    },
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
  {
    name: 'ProgramOverview',
    query: `# The Selo program as a whole for a year (Decreto 10.527/2020, arts. 2º-4º; Portaria MDA
# nº 28/2024), for the ministry (ADMIN, AUDITOR; a PRODUCER is refused): producers by Selo
# standing on 31 December and by verdict (NOT_DETERMINABLE while the minimum weighted percentage
# is not published); the spending of all producers by alínea, region, state and product, and the
# program's priority-region share; the family farmers served; the producers whose standing
# changed; and the years before. Every figure is the sum of the producers' sealCompliance.
query ProgramOverview($year: Int!, $from: Int!) {
  programOverview(year: $year) {
    year
    asKnownOn
    producerCount
    byStanding { standing producers }
    byCompliance { compliance producers }
    spending { salesRevenue base familyFarmingAcquisitions otherProductAcquisitions fomento actualTotal weightedTotal priorityRegionAmount priorityRegionShare }
    byKind { kind actual weighted count }
    byRegion { region actual weighted count }
    byState { state region actual count }
    byFeedstock { feedstock actual weighted count }
    families { familyFarmers organizations organizationFamilyFarmerMembers byState { state familyFarmers } }
    standingChanges { producer { id legalName } before after reason { ${finding} } }
    producers { producer { id legalName } standing compliance sealCompliance { status actualTotal countedTotal } }
    years(from: $from) { year byStanding { standing producers } byCompliance { compliance producers } spending { actualTotal weightedTotal } familyFarmers standingChanges }
  }
}
`,
    variables: { year: 2025, from: 2023 },
  },
];
