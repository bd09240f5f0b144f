import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { RegistrationKind } from '../law/types';

/** A farmer's DAP or CAF (Decreto 10.527/2020, art. 2º IV). */
@Entity('family_farmer_registration')
export class FamilyFarmerRegistration {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' }) id: string;
  @Column({ name: 'family_farmer_id', type: 'bigint' }) familyFarmerId: string;
  @Column('text') kind: RegistrationKind;
  @Column('text') number: string;
  @Column({ name: 'valid_from', type: 'date' }) validFrom: string;
  @Column({ name: 'valid_until', type: 'date' }) validUntil: string;
}
