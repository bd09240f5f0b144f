import { ValueTransformer } from 'typeorm';
import { Decimal } from '../law/decimal';

/** `numeric` ⇄ Decimal: pg hands numerics over as strings, and they stay exact (never parseFloat). */
export const decimalTransformer: ValueTransformer = {
  to: (value: Decimal | string | null | undefined) => (value == null ? value : value.toString()),
  from: (value: string | null) => (value == null ? null : new Decimal(value)),
};

/** `bigint` identity columns arrive as strings; ids stay strings end to end. */
export const NUMERIC = { type: 'numeric', transformer: decimalTransformer } as const;
