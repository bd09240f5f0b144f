import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { TaxRegime } from '../law/types';

/** Lei 11.116/2005, art. 4º §§1º, 4º, 5º. */
@Entity('regime_election')
export class RegimeElection {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' }) id: string;
  @Column({ name: 'producer_id', type: 'bigint' }) producerId: string;
  @Column('text') regime: TaxRegime;
  @Column({ name: 'elected_on', type: 'date' }) electedOn: string;
  @Column({ name: 'starting_activity', type: 'boolean' }) startingActivity: boolean;
  @Column({ name: 'effective_year', type: 'integer' }) effectiveYear: number;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
