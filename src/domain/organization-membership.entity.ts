import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One declaration of an organization's members (Decreto 10.527/2020, art. 4º VI); `declaredOn` null: recorded without a date. */
@Entity('organization_membership')
export class OrganizationMembership {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' }) id: string;
  @Column({ name: 'organization_id', type: 'bigint' }) organizationId: string;
  @Column({ name: 'declared_on', type: 'date', nullable: true }) declaredOn: string | null;
  @Column('integer') members: number;
  @Column({ name: 'family_farmer_members', type: 'integer' }) familyFarmerMembers: number;
  @Column({ name: 'recorded_at', type: 'timestamptz' }) recordedAt: Date;
}
