import { farmersImport } from './farmers';
import { municipalitiesImport } from './municipalities';
import { purchasesImport } from './purchases';
import { salesImport } from './sales';
import { semiaridImport } from './semiarid';

/** The files people already have, by the name used on the command line and in POST /import/<kind>. */
export const IMPORT_KINDS = {
  municipalities: municipalitiesImport,
  farmers: farmersImport,
  purchases: purchasesImport,
  sales: salesImport,
  semiarid: semiaridImport,
};
