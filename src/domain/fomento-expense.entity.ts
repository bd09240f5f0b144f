import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { Decimal } from '../law/decimal';
import { FomentoKind } from '../law/types';
import { NUMERIC } from './decimal.transformer';

/** Fomento spending (Decreto 10.527/2020, art. 2º VII; art. 3º §2 I c). */
@Entity('fomento_expense')
export class FomentoExpense {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' }) id: string;
  @Column({ name: 'producer_id', type: 'bigint' }) producerId: string;
  @Column({ name: 'spent_on', type: 'date' }) spentOn: string;
  @Column('text') kind: FomentoKind;
  @Column(NUMERIC) amount: Decimal;
  @Column({ name: 'municipality_code', type: 'char', length: 7 }) municipalityCode: string;
  @Column({ name: 'organization_id', type: 'bigint', nullable: true }) organizationId: string | null;
  @Column({ type: 'text', nullable: true }) description: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
