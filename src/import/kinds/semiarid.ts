import { Actor } from '../../services/actor';
import { MunicipalityService } from '../../services/municipality.service';
import { assertAdmin } from '../../services/scope';
import { applySemiaridEdition } from '../../services/semiarid-membership';
import { ImportLineError } from '../import-error';
import { failures, ImportKind, sqlCheck, STAGING } from '../import-kind';
import { message } from '../../i18n';

/**
 * One edition of the official Semiárido list with its act and validity (`--act`, `--valid-from`,
 * `--valid-until`); unlisted municipalities leave on its start; new ones are added (ADMIN).
 */
export const semiaridImport: ImportKind = {
  name: 'semiarid',
  producerScoped: false,
  edition: true,
  columns: [
    { name: 'ibgeCode', required: true, aliases: ['code'], portuguese: ['codigo', 'codigoIbge', 'codIbge', 'cdMun', 'codigoMunicipio', 'codigoDoMunicipio', 'geocodigo'] },
    { name: 'name', required: true, portuguese: ['nome', 'municipio', 'nmMun', 'nomeDoMunicipio'] },
  ],
  stagingColumns: [['ibge_code', 'text'], ['name', 'text'], ['state', 'text'], ['region', 'text']],

  authorize(actor: Actor) {
    assertAdmin(actor);
  },

  toStaging(row) {
    const { municipality: m } = MunicipalityService.toRow({ ibgeCode: row.ibgeCode ?? '', name: row.name ?? '', semiarid: true }, 'row');
    return [m.ibgeCode, m.name, m.state, m.region];
  },

  check(em) {
    return failures([
      sqlCheck(em, `SELECT line, ibge_code FROM (SELECT line, ibge_code, row_number() OVER (PARTITION BY ibge_code ORDER BY line) AS n FROM ${STAGING}) d WHERE n > 1`, [],
        (r) => new ImportLineError('BAD_USER_INPUT', r.line, 'ibgeCode', message('import.ibgeCodeTwice', { code: String(r.ibge_code) }))),
    ]);
  },

  async write(em, _producerId, _rows, edition) {
    if (!edition) throw new Error('semiarid import without its edition');
    const added: unknown[] = await em.query(
      `INSERT INTO municipality (ibge_code, name, state, region) SELECT ibge_code, name, state, region FROM ${STAGING}
       ON CONFLICT (ibge_code) DO NOTHING RETURNING ibge_code`,
    );
    const change = await applySemiaridEdition(em, edition, `SELECT ibge_code AS code FROM ${STAGING}`);
    const counts = { ...change, municipalitiesAdded: added.length };
    return {
      counts,
      audit: [{ operation: 'importSemiaridEdition', entity: 'SemiaridMembership', entityId: null, producerId: null, after: { ...edition, ...counts } }],
    };
  },
};
