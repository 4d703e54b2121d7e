// A user pool's identity providers, through the Cognito API calls cognito-local lacks: CreateIdentityProvider,
// UpdateIdentityProvider, DescribeIdentityProvider, DeleteIdentityProvider, ListIdentityProviders and
// GetIdentityProviderByIdentifier, for SAML providers (the only kind Caracal connects). As Cognito does, a provider's
// metadata is read when it is created or updated (a MetadataURL is fetched then): a metadata document without an
// HTTP-Redirect sign-on URL or an unexpired signing certificate is refused. Kept in the stand-in's owner-only folder
// (`state/cognito/identity-providers.json`, 0600); these calls need AWS credentials, so browsers cannot make them
// (../cognito-front.ts).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { ownerOnlyFile } from '../cognito-flows/state-files';
import type { CognitoErrors, Route, UserPools } from '../cognito-flows/types';
import { MetadataError, readProviderMetadata, type ProviderMetadata } from './saml-metadata';

export interface IdentityProvider {
  readonly UserPoolId: string;
  readonly ProviderName: string;
  readonly ProviderType: 'SAML';
  /** As given (MetadataURL or MetadataFile, IDPSignout, IDPInit, ...), with SSORedirectBindingURI from the metadata. */
  readonly ProviderDetails: Readonly<Record<string, string>>;
  /** User pool attribute → SAML attribute name. */
  readonly AttributeMapping: Readonly<Record<string, string>>;
  readonly IdpIdentifiers: readonly string[];
  readonly CreationDate: string;
  readonly LastModifiedDate: string;
  /** What the metadata says (kept to validate responses; not part of Cognito's answer). */
  readonly metadata: ProviderMetadata;
}

type Stored = Record<string, Record<string, IdentityProvider>>;

const NAME = /^[^_\p{Z}][\p{L}\p{M}\p{S}\p{N}\p{P}][^_\p{Z}]+$/u;
const RESERVED_NAMES = new Set(['COGNITO', 'Google', 'Facebook', 'LoginWithAmazon', 'SignInWithApple']);
const IDENTIFIER = /^[\w\s+=.@-]{1,40}$/;
const DETAIL_KEYS = new Set([
  'MetadataURL',
  'MetadataFile',
  'IDPSignout',
  'IDPInit',
  'EncryptedResponses',
  'RequestSigningAlgorithm',
]);

export type MetadataFetch = (url: string) => Promise<string>;

const fetchMetadata: MetadataFetch = async (url) => {
  const response = await fetch(url, { signal: AbortSignal.timeout(5000), redirect: 'error' });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.text();
};

/** Cognito's answer: the record without what the stand-in keeps for itself, dates as Dates. */
function described(p: IdentityProvider) {
  const { metadata: _kept, CreationDate, LastModifiedDate, ...rest } = p;
  return { ...rest, CreationDate: new Date(CreationDate), LastModifiedDate: new Date(LastModifiedDate) };
}

export class IdentityProviders {
  private stored: Stored;

  constructor(
    private readonly file: string,
    private readonly pools: UserPools,
    private readonly errors: CognitoErrors,
    private readonly fetchUrl: MetadataFetch = fetchMetadata,
    private readonly now: () => number = Date.now,
  ) {
    ownerOnlyFile(file);
    this.stored = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Stored) : {};
  }

  get(userPoolId: string, name: string): IdentityProvider | undefined {
    return this.stored[userPoolId]?.[name];
  }

  /** The provider an `idp_identifier` names (one of its IdpIdentifiers). */
  byIdentifier(userPoolId: string, identifier: string): IdentityProvider | undefined {
    return Object.values(this.stored[userPoolId] ?? {}).find((p) => p.IdpIdentifiers.includes(identifier));
  }

  /** The Cognito API calls, by target name. */
  routes(): Record<string, Route> {
    return {
      CreateIdentityProvider: (ctx, req) => this.create(ctx, req),
      UpdateIdentityProvider: (ctx, req) => this.update(ctx, req),
      DescribeIdentityProvider: async (ctx, req) => ({ IdentityProvider: described(await this.existing(ctx, req)) }),
      DeleteIdentityProvider: async (ctx, req) => {
        const provider = await this.existing(ctx, req);
        delete this.stored[provider.UserPoolId][provider.ProviderName];
        this.save();
        return {};
      },
      ListIdentityProviders: async (ctx, req) => {
        const pool = await this.pool(ctx, req);
        return {
          Providers: Object.values(this.stored[pool] ?? {}).map((p) => ({
            ProviderName: p.ProviderName,
            ProviderType: p.ProviderType,
            CreationDate: new Date(p.CreationDate),
            LastModifiedDate: new Date(p.LastModifiedDate),
          })),
        };
      },
      GetIdentityProviderByIdentifier: async (ctx, req) => {
        const pool = await this.pool(ctx, req);
        const provider = this.byIdentifier(pool, String(req.IdpIdentifier ?? ''));
        if (!provider)
          throw new this.errors.CognitoError(
            'ResourceNotFoundException',
            'Identity provider not found for the given identifier.',
          );
        return { IdentityProvider: described(provider) };
      },
    };
  }

  private async create(ctx: unknown, req: Record<string, unknown>) {
    const pool = await this.pool(ctx, req);
    const name = String(req.ProviderName ?? '');
    if (name.length > 32 || !NAME.test(name) || RESERVED_NAMES.has(name))
      throw this.invalid(
        `ProviderName ${JSON.stringify(name)} is not valid: 3 to 32 characters, no underscore or space at either end, not a reserved name.`,
      );
    if (req.ProviderType !== 'SAML')
      throw this.invalid('The local user pool connects SAML identity providers only (ProviderType SAML).');
    if (this.stored[pool]?.[name])
      throw new this.errors.CognitoError(
        'DuplicateProviderException',
        `A provider with the name ${name} already exists in this user pool.`,
      );
    const at = new Date(this.now()).toISOString();
    const provider = await this.checked(pool, {
      UserPoolId: pool,
      ProviderName: name,
      ProviderType: 'SAML',
      details: req.ProviderDetails,
      mapping: req.AttributeMapping ?? {},
      identifiers: req.IdpIdentifiers ?? [],
      CreationDate: at,
    });
    this.stored[pool] = { ...this.stored[pool], [name]: provider };
    this.save();
    return { IdentityProvider: described(provider) };
  }

  private async update(ctx: unknown, req: Record<string, unknown>) {
    const current = await this.existing(ctx, req);
    const given = (req.ProviderDetails ?? {}) as Record<string, string>;
    const source = given.MetadataURL !== undefined || given.MetadataFile !== undefined;
    const { SSORedirectBindingURI: _sso, SLORedirectBindingURI: _slo, ...kept } = current.ProviderDetails;
    const details = source
      ? { ...Object.fromEntries(Object.entries(kept).filter(([k]) => k !== 'MetadataURL' && k !== 'MetadataFile')), ...given }
      : { ...kept, ...given };
    const provider = await this.checked(current.UserPoolId, {
      UserPoolId: current.UserPoolId,
      ProviderName: current.ProviderName,
      ProviderType: 'SAML',
      details,
      mapping: req.AttributeMapping ?? current.AttributeMapping,
      identifiers: req.IdpIdentifiers ?? current.IdpIdentifiers,
      CreationDate: current.CreationDate,
    });
    this.stored[current.UserPoolId][current.ProviderName] = provider;
    this.save();
    return { IdentityProvider: described(provider) };
  }

  private async checked(
    pool: string,
    p: {
      UserPoolId: string;
      ProviderName: string;
      ProviderType: 'SAML';
      details: unknown;
      mapping: unknown;
      identifiers: unknown;
      CreationDate: string;
    },
  ): Promise<IdentityProvider> {
    const details = (p.details ?? {}) as Record<string, unknown>;
    for (const [key, value] of Object.entries(details)) {
      if (!DETAIL_KEYS.has(key)) throw this.invalid(`ProviderDetails ${key} is not a SAML provider detail.`);
      if (typeof value !== 'string') throw this.invalid(`ProviderDetails ${key} must be a string.`);
    }
    for (const flag of ['IDPSignout', 'IDPInit', 'EncryptedResponses'])
      if (details[flag] !== undefined && details[flag] !== 'true' && details[flag] !== 'false')
        throw this.invalid(`ProviderDetails ${flag} must be "true" or "false".`);
    if (details.EncryptedResponses === 'true')
      throw this.invalid('The local user pool does not decrypt SAML responses (EncryptedResponses).');
    const url = details.MetadataURL as string | undefined;
    const file = details.MetadataFile as string | undefined;
    if ((url === undefined) === (file === undefined))
      throw this.invalid('ProviderDetails needs exactly one of MetadataURL and MetadataFile.');
    let xml = file;
    if (url !== undefined) {
      if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
        throw this.invalid('MetadataURL must be an http(s) URL.');
      try {
        xml = await this.fetchUrl(url);
      } catch (err) {
        throw this.invalid(`Could not retrieve the metadata from ${url}: ${(err as Error).message}`);
      }
    }
    let metadata: ProviderMetadata;
    try {
      metadata = readProviderMetadata(xml ?? '', this.now());
    } catch (err) {
      if (err instanceof MetadataError) throw this.invalid(err.message);
      throw err;
    }
    const mapping = p.mapping as Record<string, unknown>;
    if (typeof mapping !== 'object' || mapping === null || Object.values(mapping).some((v) => typeof v !== 'string' || !v))
      throw this.invalid('AttributeMapping maps user pool attributes to SAML attribute names (non-empty strings).');
    const identifiers = p.identifiers as unknown[];
    if (
      !Array.isArray(identifiers) ||
      identifiers.length > 50 ||
      identifiers.some((i) => typeof i !== 'string' || !IDENTIFIER.test(i))
    )
      throw this.invalid('IdpIdentifiers must be up to 50 identifiers of 1 to 40 characters.');
    for (const other of Object.values(this.stored[pool] ?? {})) {
      if (other.ProviderName === p.ProviderName) continue;
      const taken = (identifiers as string[]).find((i) => other.IdpIdentifiers.includes(i));
      if (taken)
        throw new this.errors.CognitoError(
          'DuplicateProviderException',
          `The identifier ${taken} is already used by ${other.ProviderName}.`,
        );
    }
    return {
      UserPoolId: p.UserPoolId,
      ProviderName: p.ProviderName,
      ProviderType: 'SAML',
      ProviderDetails: {
        ...(details as Record<string, string>),
        SSORedirectBindingURI: metadata.ssoRedirectUrl,
        ...(metadata.sloRedirectUrl ? { SLORedirectBindingURI: metadata.sloRedirectUrl } : {}),
      },
      AttributeMapping: mapping as Record<string, string>,
      IdpIdentifiers: identifiers as string[],
      CreationDate: p.CreationDate,
      LastModifiedDate: new Date(this.now()).toISOString(),
      metadata,
    };
  }

  private async pool(ctx: unknown, req: Record<string, unknown>): Promise<string> {
    const id = String(req.UserPoolId ?? '');
    await this.pools.getUserPool(ctx, id);
    return id;
  }

  private async existing(ctx: unknown, req: Record<string, unknown>): Promise<IdentityProvider> {
    const pool = await this.pool(ctx, req);
    const provider = this.get(pool, String(req.ProviderName ?? ''));
    if (!provider)
      throw new this.errors.CognitoError(
        'ResourceNotFoundException',
        `Identity provider ${String(req.ProviderName)} does not exist.`,
      );
    return provider;
  }

  private invalid(message: string): Error {
    return new this.errors.InvalidParameterError(message);
  }

  private save(): void {
    writeFileSync(this.file, JSON.stringify(this.stored, null, 2), { mode: 0o600 });
    ownerOnlyFile(this.file);
  }
}
