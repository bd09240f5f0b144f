import { Column, Entity, PrimaryColumn } from 'typeorm';
import { Region } from '../law/types';

@Entity('municipality')
export class Municipality {
  @PrimaryColumn({ name: 'ibge_code', type: 'char', length: 7 }) ibgeCode: string;
  @Column('text') name: string;
  @Column({ type: 'char', length: 2 }) state: string;
  @Column('text') region: Region;
  @Column('boolean') semiarid: boolean;
  @Column({ name: 'priority_region', type: 'boolean' }) priorityRegion: boolean;
}
