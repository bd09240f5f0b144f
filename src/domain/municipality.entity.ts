import { Column, Entity, PrimaryColumn } from 'typeorm';
import { Region } from '../law/types';

/**
 * A municipality (IBGE). Its Semiárido membership is dated (semiarid-membership.entity.ts); whether
 * it is in the priority region is derived on a date (src/services/facts/priority-region.sql.ts).
 */
@Entity('municipality')
export class Municipality {
  @PrimaryColumn({ name: 'ibge_code', type: 'char', length: 7 }) ibgeCode: string;
  @Column('text') name: string;
  @Column({ type: 'char', length: 2 }) state: string;
  @Column('text') region: Region;
}
