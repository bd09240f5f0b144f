import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Family farmer (Lei 11.326/2006; Decreto 10.527/2020, art. 2º IV). */
@Entity('family_farmer')
export class FamilyFarmer {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' }) id: string;
  @Column({ type: 'char', length: 11 }) cpf: string;
  @Column('text') name: string;
  @Column({ name: 'municipality_code', type: 'char', length: 7 }) municipalityCode: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
