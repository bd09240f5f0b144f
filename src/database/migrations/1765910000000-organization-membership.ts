import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Member counts as dated declarations (Decreto 10.527/2020 art. 4º VI); existing counts become
 * undated ones so past answers stand, and a trigger gives new organizations theirs.
 */
export class OrganizationMembership1765910000000 implements MigrationInterface {
  name = 'OrganizationMembership1765910000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE organization_membership (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES family_farming_organization(id),
        declared_on date,
        members integer NOT NULL CHECK (members > 0),
        family_farmer_members integer NOT NULL CHECK (family_farmer_members >= 0),
        recorded_at timestamptz NOT NULL DEFAULT now(),
        CHECK (family_farmer_members <= members)
      );
      CREATE INDEX organization_membership_organization ON organization_membership (organization_id, declared_on, id);
      INSERT INTO organization_membership (organization_id, declared_on, members, family_farmer_members)
        SELECT id, NULL, members, family_farmer_members FROM family_farming_organization ORDER BY id;
      CREATE FUNCTION organization_first_membership() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO organization_membership (organization_id, declared_on, members, family_farmer_members)
        VALUES (NEW.id, NULL, NEW.members, NEW.family_farmer_members);
        RETURN NULL;
      END $$;
      CREATE TRIGGER organization_first_membership AFTER INSERT ON family_farming_organization
        FOR EACH ROW EXECUTE FUNCTION organization_first_membership();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TRIGGER organization_first_membership ON family_farming_organization;
      DROP FUNCTION organization_first_membership();
      DROP TABLE organization_membership;
    `);
  }
}
