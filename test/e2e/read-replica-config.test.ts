import { ConfigurationError, loadConfig } from '../../src/config';
import { lsnValue } from '../../src/services/read-replica';

// The read replica's settings (README, "Configuration"; docs/SCALING.md) and the WAL positions it compares.

test('READ_DATABASE_URL and its bounds: defaults, values, and a wrong value said in one line', () => {
  const none = loadConfig({});
  expect(none.readDatabaseUrl).toBeUndefined();
  expect([none.readReplicaMaxLagMs, none.readReplicaWaitMs]).toEqual([5000, 500]);
  const set = loadConfig({ READ_DATABASE_URL: 'postgres://selo@standby/selo', READ_REPLICA_MAX_LAG_MS: '1500', READ_REPLICA_WAIT_MS: '0' });
  expect([set.readDatabaseUrl, set.readReplicaMaxLagMs, set.readReplicaWaitMs]).toEqual(['postgres://selo@standby/selo', 1500, 0]);
  expect(() => loadConfig({ READ_REPLICA_MAX_LAG_MS: '5s' })).toThrow(new ConfigurationError('READ_REPLICA_MAX_LAG_MS: "5s" is not a number of milliseconds such as 5000'));
  expect(() => loadConfig({ READ_REPLICA_WAIT_MS: '-1' })).toThrow(ConfigurationError);
});

test('WAL positions compare as numbers, across the 32-bit boundary of their two halves', () => {
  expect(lsnValue('0/16B3748')).toBe(0x16b3748n);
  expect(lsnValue('16/B374D848')).toBe(0x16b374d848n);
  expect(lsnValue('1/0') > lsnValue('0/FFFFFFFF')).toBe(true);
  expect(lsnValue('0/A') > lsnValue('0/9')).toBe(true);
});
