// The organisation's general settings: one item in the settings table (SETTINGS_TABLE)
//   pk = settings  sk = general  { organizationName, mfaRequired, updatedAt, updatedBy }
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../clients';
import { ENV, requireEnv } from '../env';

const KEY = { pk: 'settings', sk: 'general' };

export interface StoredGeneralSettings {
  readonly organizationName: string;
  /** The organisation's own choice; the deployment may require MFA regardless. */
  readonly mfaRequired: boolean;
  readonly updatedAt: string | null;
  readonly updatedBy: string | null;
}

export async function readStoredGeneralSettings(): Promise<StoredGeneralSettings> {
  const out = await dynamo().send(new GetCommand({ TableName: requireEnv(ENV.settingsTable), Key: KEY, ConsistentRead: true }));
  return {
    organizationName: typeof out.Item?.organizationName === 'string' ? out.Item.organizationName : '',
    mfaRequired: out.Item?.mfaRequired === true,
    updatedAt: (out.Item?.updatedAt as string | undefined) ?? null,
    updatedBy: (out.Item?.updatedBy as string | undefined) ?? null,
  };
}

export async function putStoredGeneralSettings(settings: StoredGeneralSettings): Promise<void> {
  await dynamo().send(new PutCommand({ TableName: requireEnv(ENV.settingsTable), Item: { ...KEY, ...settings } }));
}
