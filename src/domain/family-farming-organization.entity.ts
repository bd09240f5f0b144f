import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { OrganizationKind } from '../law/types';

/** Cooperative or association of family farmers (Decreto 10.527/2020, art. 2º V). */
@Entity('family_farming_organization')
export class FamilyFarmingOrganization {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' }) id: string;
  @Column({ type: 'char', length: 14 }) cnpj: string;
  @Column('text') name: string;
  @Column('text') kind: OrganizationKind;
  @Column({ name: 'municipality_code', type: 'char', length: 7 }) municipalityCode: string;
  @Column('integer') members: number;
  @Column({ name: 'family_farmer_members', type: 'integer' }) familyFarmerMembers: number;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
