// Talking to the users and roles API of a local runtime as an administrator and as invited users.
import { graphql, signIn, type TestRuntime } from '../../local/harness';

export const ADMIN_PASSWORD = 'Admin-Passw0rd-2026!';
export const USER_PASSWORD = 'User-Passw0rd-2026!';

export interface GraphqlError {
  readonly errorType?: string;
  readonly message: string;
}

export interface Answer<T = Record<string, unknown>> {
  readonly data: T | null;
  readonly errors: GraphqlError[];
}

export async function api<T = Record<string, unknown>>(
  runtime: TestRuntime,
  token: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<Answer<T>> {
  const { body } = await graphql(runtime, { query, variables }, token);
  return { data: (body.data ?? null) as T | null, errors: (body.errors ?? []) as unknown as GraphqlError[] };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read answers loosely and assert their shape
type Loose = Record<string, any>;

/** The data of a call expected to succeed. */
export async function ok<T = Loose>(
  runtime: TestRuntime,
  token: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<T> {
  const answer = await api<T>(runtime, token, query, variables);
  if (answer.errors.length) throw new Error(`GraphQL errors: ${JSON.stringify(answer.errors)}`);
  return answer.data as T;
}

/** The single error of a call expected to fail. */
export async function refused(
  runtime: TestRuntime,
  token: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<GraphqlError> {
  const answer = await api(runtime, token, query, variables);
  if (answer.errors.length !== 1) throw new Error(`expected one error, got ${JSON.stringify(answer)}`);
  return { errorType: answer.errors[0].errorType, message: answer.errors[0].message };
}

export async function signInAdmin(runtime: TestRuntime): Promise<string> {
  const [admin] = runtime.createdUsers;
  return (await signIn(runtime, admin.username, admin.temporaryPassword, ADMIN_PASSWORD)).idToken;
}

/** The temporary password the user pool last emailed to this address (the local mailbox). */
export async function temporaryPasswordFor(runtime: TestRuntime, email: string): Promise<string> {
  const mailbox = (await (await fetch(`${runtime.url}/local/mailbox.json`)).json()) as Array<{ to: string; code: string | null }>;
  const message = mailbox.filter((m) => m.to === email && m.code).pop();
  if (!message?.code) throw new Error(`no temporary password was emailed to ${email}`);
  return message.code;
}

export const USER_FIELDS = 'id email givenName familyName name enabled status createdAt role { id name permissions }';

export const INVITE = `mutation Invite($input: InviteUserInput!) { inviteUser(input: $input) { ${USER_FIELDS} } }`;
export const UPDATE_USER = `mutation Update($input: UpdateUserInput!) { updateUser(input: $input) { ${USER_FIELDS} } }`;
export const CREATE_ROLE =
  'mutation Create($input: CreateRoleInput!) { createRole(input: $input) { id name permissions userCount } }';
export const UPDATE_ROLE =
  'mutation Update($input: UpdateRoleInput!) { updateRole(input: $input) { id name permissions userCount } }';
export const DELETE_ROLE = 'mutation Delete($id: ID!) { deleteRole(id: $id) }';
export const ROLES = '{ roles { id name permissions userCount } }';

export async function createRole(runtime: TestRuntime, token: string, name: string, permissions: string[]) {
  const data = await ok(runtime, token, CREATE_ROLE, { input: { name, permissions } });
  return data.createRole as { id: string; name: string; permissions: string[]; userCount: number };
}

/** Invites a user through the API, then signs them in with the emailed temporary password and a new one. */
export async function inviteAndSignIn(runtime: TestRuntime, adminToken: string, email: string, roleId: string) {
  const data = await ok(runtime, adminToken, INVITE, {
    input: { email, givenName: 'Grace', familyName: 'Hopper', role: { kind: 'Id', value: roleId } },
  });
  const user = data.inviteUser as { id: string; email: string };
  const temporary = await temporaryPasswordFor(runtime, email);
  const { idToken } = await signIn(runtime, email, temporary, USER_PASSWORD);
  return { id: user.id, token: idToken };
}
