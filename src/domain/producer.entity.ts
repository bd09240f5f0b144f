import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';

@Entity('producer')
export class Producer {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' }) id: string;
  @Column({ type: 'char', length: 14 }) cnpj: string;
  @Column({ name: 'legal_name', type: 'text' }) legalName: string;
  @Column({ name: 'plant_municipality_code', type: 'char', length: 7 }) plantMunicipalityCode: string;
  @Column({ name: 'anp_authorization', type: 'text', nullable: true }) anpAuthorization: string | null;
  /** CNPJs of the producer's other establishments, whose NF-e keys it records too (set by an ADMIN). */
  @Column({ type: 'char', length: 14, array: true, default: () => "'{}'" }) establishments: string[];
  /** Optimistic locking (updateProducer's expectedVersion). */
  @VersionColumn() version: number;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
