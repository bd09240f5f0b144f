import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { RegistrationKind } from '../law/types';

/** An organization's DAP or CAF jurídica (Decreto 10.527/2020, art. 2º V; art. 4º VII). */
@Entity('organization_registration')
export class OrganizationRegistration {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' }) id: string;
  @Column({ name: 'organization_id', type: 'bigint' }) organizationId: string;
  @Column('text') kind: RegistrationKind;
  @Column('text') number: string;
  @Column({ name: 'valid_from', type: 'date' }) validFrom: string;
  @Column({ name: 'valid_until', type: 'date' }) validUntil: string;
}
