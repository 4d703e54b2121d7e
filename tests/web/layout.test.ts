// The web app's shape, as the lint rules hold it: screens fetch and navigate, features render from props,
// nothing but the router imports a screen, and no path is written by hand. The rules refuse each breach,
// and the app as it stands breaks none of them.
import { ESLint } from 'eslint';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const eslint = new ESLint({ cwd: root });
const SHAPE_RULES = new Set(['no-restricted-imports', 'no-restricted-syntax']);

async function breaches(code: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, file) });
  return result.messages.filter((m) => m.ruleId && SHAPE_RULES.has(m.ruleId)).map((m) => m.message);
}

describe('the lint rules refuse', () => {
  it('a feature that fetches, signs in, reads permissions, navigates or reaches a screen or the shell', async () => {
    const found = await breaches(
      [
        "import { useQuery } from '@apollo/client/react';",
        "import { useNavigate } from 'react-router-dom';",
        "import { useAuth } from '../../lib/auth/AuthContext';",
        "import { usePermissions } from '../../lib/permissions';",
        "import { LIST_ROLES } from '../../screens/Roles/roles.operations';",
        "import { ProfileMenu } from '../../app/shell/ProfileMenu';",
        'export const all = [useQuery, useNavigate, useAuth, usePermissions, LIST_ROLES, ProfileMenu];',
      ].join('\n'),
      'web/src/features/roles/Breach.tsx',
    );
    expect(found).toHaveLength(6);
  });

  it('lets a feature render links, use types and build paths', async () => {
    const found = await breaches(
      [
        "import { Link } from 'react-router-dom';",
        "import type { Auth } from '../../lib/auth/AuthContext';",
        "import { editRolePath } from '../../app/routes';",
        'export const fine = [Link, editRolePath] as unknown as Auth;',
      ].join('\n'),
      'web/src/features/roles/Fine.tsx',
    );
    expect(found).toEqual([]);
  });

  it('a screen imported by anything but the router, or by another screen', async () => {
    const code = "import { UsersPage } from '../Users/UsersPage';\nexport const page = UsersPage;";
    expect(await breaches(code, 'web/src/screens/Roles/Breach.ts')).toHaveLength(1);
    const shell = "import { UsersPage } from '../../screens/Users/UsersPage';\nexport const page = UsersPage;";
    expect(await breaches(shell, 'web/src/app/shell/Breach.ts')).toHaveLength(1);
    const router = "import { UsersPage } from '../screens/Users/UsersPage';\nexport const page = UsersPage;";
    expect(await breaches(router, 'web/src/app/AppRoutes.tsx')).toEqual([]);
  });

  it('a path written by hand', async () => {
    const code = [
      "import { Link, useNavigate } from 'react-router-dom';",
      'export function Breach({ id }: { readonly id: string }) {',
      '  const navigate = useNavigate();',
      "  navigate('/sign-in/');",
      '  return <Link to={`/settings/roles/${id}/edit/`}>Edit</Link>;',
      '}',
    ].join('\n');
    expect(await breaches(code, 'web/src/screens/Roles/Breach.tsx')).toHaveLength(2);
  });
});

it('the web app breaks none of them', async () => {
  const results = await eslint.lintFiles(['web/src']);
  const found = results.flatMap((r) =>
    r.messages.filter((m) => m.ruleId && SHAPE_RULES.has(m.ruleId)).map((m) => `${r.filePath}:${m.line} ${m.message}`),
  );
  expect(found).toEqual([]);
}, 60_000);
