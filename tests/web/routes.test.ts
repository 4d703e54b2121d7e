// The app's paths: each builder makes a path the router matches to its pattern, giving the page back exactly
// what the builder was given, whatever an id or a name holds.
import { matchRoutes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import {
  ALERT_ROUTES,
  alertPath,
  detectionAlertsPath,
  editLogSourcePath,
  editRolePath,
  editSchemaPath,
  LOG_SOURCE_ROUTES,
  logSourcePath,
  SCHEMA_ROUTES,
  schemaPath,
  SETTINGS_ROUTES,
} from '../../web/src/app/routes';

const AWKWARD = ['plain', 'with space', 'a/b', 'q?x=1', 'hash#1', '100%', 'Custom.Acme.Audit', 'é✓'];

const BUILDERS: readonly [string, (value: string) => string, string][] = [
  [ALERT_ROUTES.details, alertPath, 'id'],
  [LOG_SOURCE_ROUTES.details, logSourcePath, 'id'],
  [LOG_SOURCE_ROUTES.edit, editLogSourcePath, 'id'],
  [SCHEMA_ROUTES.details, schemaPath, 'name'],
  [SCHEMA_ROUTES.edit, editSchemaPath, 'name'],
  [SETTINGS_ROUTES.editRole, editRolePath, 'id'],
];

describe('path builders', () => {
  for (const [pattern, build, param] of BUILDERS) {
    it(`${pattern} takes back every value it is given`, () => {
      for (const value of AWKWARD) {
        const path = build(value);
        expect(path.endsWith('/')).toBe(true);
        expect(path).not.toMatch(/[?#]/);
        expect(matchRoutes([{ path: pattern }], path)?.[0].params[param]).toBe(value);
      }
    });
  }

  it("keeps a detection's id whole in the alerts list's query", () => {
    for (const value of AWKWARD) {
      const url = new URL(detectionAlertsPath(value), 'http://caracal.test');
      expect(url.pathname).toBe(ALERT_ROUTES.list);
      expect(url.searchParams.get('detection')).toBe(value);
    }
  });
});
