import { Actor } from '../../services/actor';
import { MunicipalityService } from '../../services/municipality.service';
import { assertAdmin } from '../../services/scope';
import { ImportLineError } from '../import-error';
import { firstFailure, ImportKind, sqlCheck, STAGING } from '../import-kind';
import { booleanCell } from './common';
import { message } from '../../i18n';

/**
 * Municipalities with their Semiárido flag (how the official list of the Semiárido, SUDENE
 * Resolução CONDEL, is loaded; the priority region of Decreto 10.527/2020 art. 6º follows).
 * Upsert by IBGE code with the rules of upsertMunicipalities; ADMIN only.
 */
export const municipalitiesImport: ImportKind = {
  name: 'municipalities',
  producerScoped: false,
  columns: [
    { name: 'ibgeCode', required: true, aliases: ['code'], portuguese: ['codigo', 'codigoIbge', 'codIbge', 'cdMun', 'codigoMunicipio', 'codigoDoMunicipio'] },
    { name: 'name', required: true, portuguese: ['nome', 'municipio', 'nmMun', 'nomeDoMunicipio'] },
    { name: 'semiarid', required: true, portuguese: ['semiarido', 'semiaridoFlag'] },
  ],
  stagingColumns: [['ibge_code', 'text'], ['name', 'text'], ['state', 'text'], ['region', 'text'], ['semiarid', 'boolean'], ['priority_region', 'boolean']],

  authorize(actor: Actor) {
    assertAdmin(actor);
  },

  toStaging(row) {
    const semiarid = booleanCell(row, 'semiarid');
    const m = MunicipalityService.toRow({ ibgeCode: row.ibgeCode ?? '', name: row.name ?? '', semiarid }, 'row');
    return [m.ibgeCode, m.name, m.state, m.region, m.semiarid, m.priorityRegion];
  },

  check(em) {
    return firstFailure([
      sqlCheck(em, `SELECT line, ibge_code FROM (SELECT line, ibge_code, row_number() OVER (PARTITION BY ibge_code ORDER BY line) AS n FROM ${STAGING}) d WHERE n > 1`, [],
        (r) => new ImportLineError('BAD_USER_INPUT', r.line, 'ibgeCode', message('import.ibgeCodeTwice', { code: String(r.ibge_code) }))),
    ]);
  },

  async write(em) {
    const [r] = await em.query(
      `WITH up AS (
         INSERT INTO municipality (ibge_code, name, state, region, semiarid, priority_region)
         SELECT ibge_code, name, state, region, semiarid, priority_region FROM ${STAGING}
         ON CONFLICT (ibge_code) DO UPDATE SET name = EXCLUDED.name, state = EXCLUDED.state, region = EXCLUDED.region,
                                               semiarid = EXCLUDED.semiarid, priority_region = EXCLUDED.priority_region
         RETURNING (xmax = 0) AS inserted, semiarid)
       SELECT count(*) FILTER (WHERE inserted)::int AS inserted, count(*) FILTER (WHERE NOT inserted)::int AS updated,
              count(*) FILTER (WHERE semiarid)::int AS semiarid FROM up`,
    );
    return {
      counts: { inserted: r.inserted, updated: r.updated, semiarid: r.semiarid },
      audit: [{ operation: 'importMunicipalities', entity: 'Municipality', entityId: null, producerId: null, after: r }],
    };
  },
};
