import { EntityManager } from 'typeorm';
import { municipalityFacts } from '../law/municipality';
import { MUNICIPALITIES } from './demo-data.tables';
import { recordSemiaridEditions } from './semiarid-editions';

/**
 * The demo dataset's municipalities, added where missing (an official list already loaded wins),
 * with their dated Semiárido membership (one interval per edition: semiarid-editions.ts) for those
 * added: how many municipalities and intervals were recorded.
 */
export async function addDemoMunicipalities(em: EntityManager): Promise<{ municipalities: number; semiaridMemberships: number }> {
  const municipalityRows = MUNICIPALITIES.map(([code, name]) => {
    const facts = municipalityFacts(code)!;
    return { ibge_code: code, name, state: facts.state, region: facts.region };
  });
  const addedMunicipalities: Array<{ ibge_code: string }> = await em.query(
    `INSERT INTO municipality (ibge_code, name, state, region)
     SELECT * FROM json_to_recordset($1::json) AS x(ibge_code text, name text, state text, region text)
     ON CONFLICT (ibge_code) DO NOTHING RETURNING ibge_code`,
    [JSON.stringify(municipalityRows)],
  );
  const added = new Set(addedMunicipalities.map((m) => m.ibge_code));
  const semiaridMemberships = await recordSemiaridEditions(em, MUNICIPALITIES.filter(([code, , semiarid]) => semiarid && added.has(code)).map(([code]) => code));
  return { municipalities: added.size, semiaridMemberships };
}
