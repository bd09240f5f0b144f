import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The records of the Selo and of PIS/Cofins on biodiesel. Money, kg and m³ are `numeric`
 * (exact), calendar dates are `date`. Checks mirror docs/API.md "Errors"'s bad-input rules so the
 * database refuses what the API refuses.
 */
export class InitialSchema1764700000000 implements MigrationInterface {
  name = 'InitialSchema1764700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE municipality (
        ibge_code char(7) PRIMARY KEY CHECK (ibge_code ~ '^[1-5][0-9]{6}$'),
        name text NOT NULL CHECK (length(trim(name)) > 0),
        state char(2) NOT NULL,
        region text NOT NULL,
        semiarid boolean NOT NULL,
        priority_region boolean NOT NULL
      );

      CREATE TABLE producer (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        cnpj char(14) NOT NULL UNIQUE,
        legal_name text NOT NULL CHECK (length(trim(legal_name)) > 0),
        plant_municipality_code char(7) NOT NULL REFERENCES municipality(ibge_code),
        anp_authorization text,
        version integer NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE seal_grant (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        producer_id bigint NOT NULL REFERENCES producer(id),
        granted_on date NOT NULL,
        valid_until date NOT NULL,
        act text,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK (valid_until >= granted_on)
      );
      CREATE INDEX seal_grant_producer ON seal_grant (producer_id, granted_on);

      CREATE TABLE seal_event (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        grant_id bigint NOT NULL REFERENCES seal_grant(id),
        kind text NOT NULL CHECK (kind IN ('SUSPENDED','REINSTATED','CANCELLED','RENEWED')),
        effective_on date NOT NULL,
        reason text,
        valid_until date,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((kind = 'RENEWED') = (valid_until IS NOT NULL))
      );
      CREATE INDEX seal_event_grant ON seal_event (grant_id, effective_on);

      CREATE TABLE regime_election (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        producer_id bigint NOT NULL REFERENCES producer(id),
        regime text NOT NULL CHECK (regime IN ('AD_VALOREM','SPECIAL_PER_M3')),
        elected_on date NOT NULL,
        starting_activity boolean NOT NULL DEFAULT false,
        effective_year integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (producer_id, effective_year)
      );

      CREATE TABLE family_farmer (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        cpf char(11) NOT NULL UNIQUE,
        name text NOT NULL CHECK (length(trim(name)) > 0),
        municipality_code char(7) NOT NULL REFERENCES municipality(ibge_code),
        created_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE family_farmer_registration (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        family_farmer_id bigint NOT NULL REFERENCES family_farmer(id),
        kind text NOT NULL CHECK (kind IN ('DAP','CAF')),
        number text NOT NULL CHECK (length(trim(number)) > 0),
        valid_from date NOT NULL,
        valid_until date NOT NULL,
        CHECK (valid_until >= valid_from)
      );
      CREATE INDEX family_farmer_registration_farmer ON family_farmer_registration (family_farmer_id, valid_from);

      CREATE TABLE family_farming_organization (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        cnpj char(14) NOT NULL UNIQUE,
        name text NOT NULL CHECK (length(trim(name)) > 0),
        kind text NOT NULL CHECK (kind IN ('COOPERATIVE','ASSOCIATION')),
        municipality_code char(7) NOT NULL REFERENCES municipality(ibge_code),
        members integer NOT NULL CHECK (members > 0),
        family_farmer_members integer NOT NULL CHECK (family_farmer_members >= 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK (family_farmer_members <= members)
      );

      CREATE TABLE organization_registration (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES family_farming_organization(id),
        kind text NOT NULL CHECK (kind IN ('DAP','CAF')),
        number text NOT NULL CHECK (length(trim(number)) > 0),
        valid_from date NOT NULL,
        valid_until date NOT NULL,
        CHECK (valid_until >= valid_from)
      );
      CREATE INDEX organization_registration_org ON organization_registration (organization_id, valid_from);

      CREATE TABLE contract (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        producer_id bigint NOT NULL REFERENCES producer(id),
        family_farmer_id bigint REFERENCES family_farmer(id),
        organization_id bigint REFERENCES family_farming_organization(id),
        signed_on date NOT NULL,
        valid_from date NOT NULL,
        valid_until date NOT NULL,
        feedstock text NOT NULL,
        quantity_kg numeric NOT NULL CHECK (quantity_kg > 0),
        price_per_kg numeric NOT NULL CHECK (price_per_kg > 0),
        technical_assistance boolean NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK (valid_until >= valid_from),
        CHECK ((family_farmer_id IS NULL) <> (organization_id IS NULL))
      );
      CREATE INDEX contract_producer ON contract (producer_id, id);

      CREATE TABLE purchase (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        producer_id bigint NOT NULL REFERENCES producer(id),
        purchased_on date NOT NULL,
        consumed_on date NOT NULL,
        feedstock text NOT NULL,
        quantity_kg numeric NOT NULL CHECK (quantity_kg > 0),
        cost numeric CHECK (cost > 0),
        supplier_kind text NOT NULL CHECK (supplier_kind IN ('FAMILY_FARMER','COOPERATIVE','ASSOCIATION','THIRD_PARTY','OWN_PRODUCTION')),
        family_farmer_id bigint REFERENCES family_farmer(id),
        organization_id bigint REFERENCES family_farming_organization(id),
        supplier_name text,
        origin_municipality_code char(7) NOT NULL REFERENCES municipality(ibge_code),
        contract_id bigint REFERENCES contract(id),
        purpose text NOT NULL DEFAULT 'BIODIESEL_FEEDSTOCK' CHECK (purpose IN ('BIODIESEL_FEEDSTOCK','OTHER_PRODUCT')),
        external_id text,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK (consumed_on >= purchased_on),
        CHECK ((supplier_kind = 'OWN_PRODUCTION') = (cost IS NULL)),
        CHECK ((supplier_kind = 'FAMILY_FARMER') = (family_farmer_id IS NOT NULL)),
        CHECK ((supplier_kind IN ('COOPERATIVE','ASSOCIATION')) = (organization_id IS NOT NULL)),
        UNIQUE (producer_id, external_id)
      );
      CREATE INDEX purchase_producer_consumed ON purchase (producer_id, consumed_on, id);
      CREATE INDEX purchase_producer_purchased ON purchase (producer_id, purchased_on);
      CREATE INDEX purchase_contract ON purchase (contract_id) WHERE contract_id IS NOT NULL;

      CREATE TABLE sale (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        producer_id bigint NOT NULL REFERENCES producer(id),
        sold_on date NOT NULL,
        volume_m3 numeric NOT NULL CHECK (volume_m3 > 0),
        revenue numeric NOT NULL CHECK (revenue > 0),
        origin text NOT NULL DEFAULT 'OWN_PRODUCTION' CHECK (origin IN ('OWN_PRODUCTION','IMPORTED')),
        market text NOT NULL DEFAULT 'DOMESTIC' CHECK (market IN ('DOMESTIC','EXPORT')),
        invoice_key char(44) UNIQUE CHECK (invoice_key ~ '^[0-9]{44}$'),
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX sale_producer_sold ON sale (producer_id, sold_on, id);

      CREATE TABLE fomento_expense (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        producer_id bigint NOT NULL REFERENCES producer(id),
        spent_on date NOT NULL,
        kind text NOT NULL CHECK (kind IN ('TECHNICAL_ASSISTANCE','DONATION','INVESTMENT','OTHER')),
        amount numeric NOT NULL CHECK (amount > 0),
        municipality_code char(7) NOT NULL REFERENCES municipality(ibge_code),
        organization_id bigint REFERENCES family_farming_organization(id),
        description text,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX fomento_expense_producer_spent ON fomento_expense (producer_id, spent_on);

      CREATE TABLE minimum_price (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        feedstock text NOT NULL,
        valid_from date NOT NULL,
        valid_until date NOT NULL,
        price_per_kg numeric NOT NULL CHECK (price_per_kg > 0),
        source text NOT NULL CHECK (length(trim(source)) > 0),
        published_on date NOT NULL DEFAULT CURRENT_DATE,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK (valid_until >= valid_from)
      );
      CREATE INDEX minimum_price_feedstock ON minimum_price (feedstock, valid_from);

      CREATE TABLE law_parameter_version (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        key text NOT NULL UNIQUE,
        parameter text NOT NULL,
        scope text,
        value jsonb NOT NULL,
        valid_from date NOT NULL,
        valid_until date,
        published_on date NOT NULL,
        legal_basis text NOT NULL CHECK (length(trim(legal_basis)) > 0),
        note text,
        shipped boolean NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK (valid_until IS NULL OR valid_until >= valid_from)
      );
      CREATE INDEX law_parameter_version_parameter ON law_parameter_version (parameter, scope, valid_from);

      CREATE TABLE audit_entry (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        at timestamptz NOT NULL DEFAULT now(),
        actor text NOT NULL,
        role text NOT NULL CHECK (role IN ('ADMIN','AUDITOR','PRODUCER')),
        operation text NOT NULL,
        entity text NOT NULL,
        entity_id text,
        producer_id bigint REFERENCES producer(id),
        request_id text,
        before jsonb,
        after jsonb
      );
      CREATE INDEX audit_entry_entity ON audit_entry (entity, entity_id);
      CREATE INDEX audit_entry_producer ON audit_entry (producer_id, id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE audit_entry, law_parameter_version, minimum_price, fomento_expense, sale, purchase,
        contract, organization_registration, family_farming_organization, family_farmer_registration,
        family_farmer, regime_election, seal_event, seal_grant, producer, municipality;
    `);
  }
}
