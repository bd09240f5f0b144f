import { Actor } from '../../services/actor';
import { MunicipalityService } from '../../services/municipality.service';
import { assertAdmin } from '../../services/scope';
import { applySemiaridFlags } from '../../services/semiarid-membership';
import { ImportLineError } from '../import-error';
import { failures, ImportKind, sqlCheck, STAGING } from '../import-kind';
import { booleanCell } from './common';
import { message } from '../../i18n';

/**
 * Municipalities upserted by IBGE code (ADMIN), the Semiárido flag from `semiaridFrom` citing
 * `semiaridAct`, or undated (src/services/semiarid-membership.ts); editions: semiarid.ts.
 */
export const municipalitiesImport: ImportKind = {
  name: 'municipalities',
  producerScoped: false,
  columns: [
    { name: 'ibgeCode', required: true, aliases: ['code'], portuguese: ['codigo', 'codigoIbge', 'codIbge', 'cdMun', 'codigoMunicipio', 'codigoDoMunicipio'] },
    { name: 'name', required: true, portuguese: ['nome', 'municipio', 'nmMun', 'nomeDoMunicipio'] },
    { name: 'semiarid', required: true, portuguese: ['semiarido', 'semiaridoFlag'] },
    { name: 'semiaridFrom', required: false, type: 'date', portuguese: ['semiaridoDesde', 'semiaridoAPartirDe'] },
    { name: 'semiaridAct', required: false, portuguese: ['semiaridoAto', 'atoSemiarido'] },
  ],
  stagingColumns: [['ibge_code', 'text'], ['name', 'text'], ['state', 'text'], ['region', 'text'], ['semiarid', 'boolean'], ['semiarid_from', 'date'], ['semiarid_act', 'text']],

  authorize(actor: Actor) {
    assertAdmin(actor);
  },

  toStaging(row) {
    const semiarid = booleanCell(row, 'semiarid');
    const { municipality: m, flag } = MunicipalityService.toRow(
      { ibgeCode: row.ibgeCode ?? '', name: row.name ?? '', semiarid, semiaridFrom: row.semiaridFrom ?? null, semiaridAct: row.semiaridAct ?? null }, 'row');
    return [m.ibgeCode, m.name, m.state, m.region, flag.member, flag.from, flag.act];
  },

  check(em) {
    return failures([
      sqlCheck(em, `SELECT line, ibge_code FROM (SELECT line, ibge_code, row_number() OVER (PARTITION BY ibge_code ORDER BY line) AS n FROM ${STAGING}) d WHERE n > 1`, [],
        (r) => new ImportLineError('BAD_USER_INPUT', r.line, 'ibgeCode', message('import.ibgeCodeTwice', { code: String(r.ibge_code) }))),
    ]);
  },

  async write(em) {
    const [r] = await em.query(
      `WITH up AS (
         INSERT INTO municipality (ibge_code, name, state, region)
         SELECT ibge_code, name, state, region FROM ${STAGING}
         ON CONFLICT (ibge_code) DO UPDATE SET name = EXCLUDED.name, state = EXCLUDED.state, region = EXCLUDED.region
         RETURNING (xmax = 0) AS inserted)
       SELECT count(*) FILTER (WHERE inserted)::int AS inserted, count(*) FILTER (WHERE NOT inserted)::int AS updated,
              (SELECT count(*) FROM ${STAGING} WHERE semiarid)::int AS semiarid FROM up`,
    );
    const flags: Array<{ ibge_code: string; semiarid: boolean; semiarid_from: string | null; semiarid_act: string | null }> =
      await em.query(`SELECT ibge_code, semiarid, semiarid_from, semiarid_act FROM ${STAGING} ORDER BY line`);
    await applySemiaridFlags(em, flags.map((f) => ({ code: f.ibge_code, member: f.semiarid, from: f.semiarid_from, act: f.semiarid_act })));
    return {
      counts: { inserted: r.inserted, updated: r.updated, semiarid: r.semiarid },
      audit: [{ operation: 'importMunicipalities', entity: 'Municipality', entityId: null, producerId: null, after: r }],
    };
  },
};
