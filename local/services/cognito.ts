// Cognito stand-in: cognito-local, composed here so that its data lives under the state folder, its
// token issuer is its real loopback address, its tokens are signed with the state folder's own key, it keeps
// password hashes and refresh-token digests only, its files are its owner's only, the codes it "emails" reach a
// local mailbox, and the calls it lacks or answers
// differently from Cognito behave as Cognito does (./cognito-flows). It also keeps SAML identity providers and serves
// the hosted-UI endpoints single sign-on uses (./cognito-hosted-ui) on the origin it is given.
import {
  CognitoIdentityProviderClient,
  CreateGroupCommand,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  ListUserPoolClientsCommand,
  ListUserPoolsCommand,
  type CreateUserPoolCommandInput,
} from '@aws-sdk/client-cognito-identity-provider';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import { createRequire } from 'node:module';
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { extendRouter } from './cognito-flows';
import { signIssuedTokens, type IssuedTokens } from './cognito-flows/issued-tokens';
import { SigningKey } from './cognito-flows/keys';
import { messageText } from './cognito-flows/messages';
import { hashingStores } from './cognito-flows/passwords';
import { lookupByDigest } from './cognito-flows/refresh-tokens';
import { ownerOnlyDirectory, ownerOnlyFile, ownerOnlyStores } from './cognito-flows/state-files';
import type { CognitoErrors, StoredUser, UserPools } from './cognito-flows/types';
import { cognitoFront } from './cognito-front';
import { HostedUi } from './cognito-hosted-ui';
import { aliasesNameNativeUsers } from './cognito-hosted-ui/federated-users';
import { IdentityProviders } from './cognito-hosted-ui/identity-providers';
import { closeServer, listenPreferring, localClientConfig } from './net';
import { physicalName, resourcesOfType, type Resolver, type StackTemplate } from '../template';

const require = createRequire(import.meta.url);
const cl = {
  services: require('cognito-local/lib/services'),
  cognitoService: require('cognito-local/lib/services/cognitoService'),
  crypto: require('cognito-local/lib/services/crypto'),
  stormDb: require('cognito-local/lib/services/dataStore/stormDb'),
  messageDelivery: require('cognito-local/lib/services/messageDelivery/messageDelivery'),
  otp: require('cognito-local/lib/services/otp'),
  tokenGenerator: require('cognito-local/lib/services/tokenGenerator'),
  userPoolService: require('cognito-local/lib/services/userPoolService'),
  config: require('cognito-local/lib/server/config'),
  router: require('cognito-local/lib/server/Router'),
  server: require('cognito-local/lib/server/server'),
  errors: require('cognito-local/lib/errors'),
};
const pino = require('pino');

/** A message the user pool sent: temporary passwords, verification and reset codes. */
export interface MailMessage {
  readonly at: string;
  readonly to: string;
  readonly subject: string;
  readonly body: string;
  readonly code: string | null;
}

export interface CognitoService {
  readonly endpoint: string;
  /** Emits 'message' with each MailMessage. */
  readonly mailbox: EventEmitter;
  readonly messages: MailMessage[];
  /** The hosted-UI endpoints (/oauth2/*, /saml2/idpresponse, /logout), when an origin to serve them on was given. */
  readonly hostedUi?: HostedUi;
  stop(): Promise<void>;
}

/** The messages of earlier runs, oldest first (lines that do not parse are skipped). */
function readMailbox(file: string): MailMessage[] {
  if (!existsSync(file)) return [];
  const messages: MailMessage[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      messages.push(JSON.parse(line) as MailMessage);
    } catch {
      continue;
    }
  }
  return messages;
}

function emailOf(user: StoredUser): string {
  return user.Attributes?.find((attribute) => attribute.Name === 'email')?.Value ?? user.Username;
}

/**
 * `port`: the port to listen on when free (the one of the state folder's last start, so the issuer stays);
 * `hostedUiOrigin`: the origin the hosted-UI endpoints are served on (the local runtime's).
 */
export async function startCognito(stateDir: string, port = 0, hostedUiOrigin?: string): Promise<CognitoService> {
  const dataDirectory = join(stateDir, 'cognito');
  ownerOnlyDirectory(dataDirectory);
  const key = await SigningKey.load(join(dataDirectory, 'signing-key.pem'));
  const logger = pino({ level: 'silent' });
  const ctx = { logger };
  const mailbox = new EventEmitter();
  const mailboxFile = join(stateDir, 'mailbox.jsonl');
  ownerOnlyFile(mailboxFile);
  const messages: MailMessage[] = readMailbox(mailboxFile);

  const deliver = (
    user: { Username: string },
    destination: string,
    message: { __code?: string; emailSubject?: string; emailMessage?: string },
  ) => {
    const mail: MailMessage = {
      at: new Date().toISOString(),
      to: destination || user.Username,
      subject: message.emailSubject ?? 'Message from Caracal',
      body: message.emailMessage ?? '',
      code: message.__code ?? null,
    };
    messages.push(mail);
    appendFileSync(mailboxFile, JSON.stringify(mail) + '\n', { mode: 0o600 });
    mailbox.emit('message', mail);
  };
  const sender = {
    sendEmail: async (_ctx: unknown, user: { Username: string }, destination: string, message: Record<string, string>) =>
      deliver(user, destination, message),
    sendSms: async (_ctx: unknown, user: { Username: string }, destination: string, message: Record<string, string>) =>
      deliver(user, destination, message),
  };

  const config = {
    ...cl.config.DefaultConfig,
    UserPoolDefaults: { UsernameAttributes: ['email'] },
    TokenConfig: { IssuerDomain: 'http://127.0.0.1:0' },
    // Served by this module's own HTTP server (./cognito-front.ts) on loopback.
    ServerConfig: { development: false },
  };
  const clock = new cl.services.DateClock();
  const dataStoreFactory = hashingStores(ownerOnlyStores(new cl.stormDb.StormDBDataStoreFactory(dataDirectory), dataDirectory));
  const cognitoServiceFactory = new cl.cognitoService.CognitoServiceFactoryImpl(
    dataDirectory,
    dataStoreFactory,
    lookupByDigest(aliasesNameNativeUsers(new cl.userPoolService.UserPoolServiceFactoryImpl(clock, dataStoreFactory))),
  );
  const cognitoClient = await cognitoServiceFactory.create(ctx, config.UserPoolDefaults);
  const triggers = new cl.services.TriggersService(
    clock,
    cognitoClient,
    { enabled: () => false },
    new cl.crypto.CryptoService(config.KMSConfig),
  );
  const messageService = new cl.services.MessagesService(triggers, new cl.messageDelivery.MessageDeliveryService(sender));
  const createMessage = messageService.create.bind(messageService);
  messageService.create = async (...args: [unknown, string, unknown, unknown, StoredUser, string, ...unknown[]]) => ({
    ...messageText(args[1], args[5], emailOf(args[4])),
    ...(await createMessage(...args)),
  });
  const tokenGenerator = new cl.tokenGenerator.JwtTokenGenerator(clock, triggers, config.TokenConfig);
  const generateTokens = tokenGenerator.generate.bind(tokenGenerator);
  tokenGenerator.generate = async (...args: unknown[]) => signIssuedTokens((await generateTokens(...args)) as IssuedTokens, key);
  const services = {
    clock,
    cognito: cognitoClient,
    config,
    messages: messageService,
    otp: cl.otp.otp,
    tokenGenerator,
    triggers,
  };
  const providers = new IdentityProviders(
    join(dataDirectory, 'identity-providers.json'),
    cognitoClient as UserPools,
    cl.errors as CognitoErrors,
  );
  const extended = extendRouter(cl.router.Router(services), cognitoClient as UserPools, cl.errors as CognitoErrors, key);
  const providerCalls = providers.routes();
  const router = (target: string) => providerCalls[target] ?? extended(target);
  const server = cl.server.createServer(router, logger, config.ServerConfig, services);
  const httpServer = createServer(cognitoFront(server.application as RequestListener, key));
  const endpoint = await listenPreferring(httpServer, port);
  config.TokenConfig.IssuerDomain = endpoint;
  const hostedUi = hostedUiOrigin
    ? new HostedUi({
        origin: hostedUiOrigin,
        ctx,
        pools: cognitoClient as UserPools,
        providers,
        key,
        generateTokens: tokenGenerator.generate,
        router,
      })
    : undefined;
  return { endpoint, mailbox, messages, hostedUi, stop: () => closeServer(httpServer) };
}

export async function provisionUserPools(stack: StackTemplate, resolver: Resolver, endpoint: string): Promise<void> {
  const client = new CognitoIdentityProviderClient(localClientConfig(endpoint, stack.region));
  const existingPools = (await client.send(new ListUserPoolsCommand({ MaxResults: 60 }))).UserPools ?? [];
  for (const [logicalId, resource] of resourcesOfType(stack, 'AWS::Cognito::UserPool')) {
    const props = resolver.resolve(resource.Properties ?? {}) as Record<string, unknown>;
    const PoolName = (props.UserPoolName as string) ?? physicalName(stack, logicalId, 128);
    let id = existingPools.find((p) => p.Name === PoolName)?.Id;
    if (!id) {
      const created = await client.send(
        new CreateUserPoolCommand({
          PoolName,
          Policies: props.Policies as CreateUserPoolCommandInput['Policies'],
          // cognito-local has no MFA_SETUP challenge: with MFA 'ON' it refuses every user without TOTP. Locally the
          // pool is OPTIONAL and the app takes such a user through TOTP setup right after sign-in, as it does on
          // AWS when the organisation's general settings require MFA.
          MfaConfiguration: props.MfaConfiguration === 'OFF' ? 'OFF' : 'OPTIONAL',
          UsernameAttributes: (props.UsernameAttributes as CreateUserPoolCommandInput['UsernameAttributes']) ?? ['email'],
          AutoVerifiedAttributes: props.AutoVerifiedAttributes as CreateUserPoolCommandInput['AutoVerifiedAttributes'],
          AdminCreateUserConfig: props.AdminCreateUserConfig as CreateUserPoolCommandInput['AdminCreateUserConfig'],
        }),
      );
      id = created.UserPool!.Id!;
    }
    const issuer = `${endpoint}/${id}`;
    resolver.register(logicalId, {
      ref: id,
      attributes: {
        Arn: `arn:aws:cognito-idp:${stack.region}:${stack.account}:userpool/${id}`,
        ProviderName: issuer.replace(/^https?:\/\//, ''),
        ProviderURL: issuer,
        UserPoolId: id,
      },
    });
  }

  for (const [logicalId, resource] of resourcesOfType(stack, 'AWS::Cognito::UserPoolClient')) {
    const props = resolver.resolve(resource.Properties ?? {}) as Record<string, unknown>;
    const UserPoolId = props.UserPoolId as string;
    const ClientName = (props.ClientName as string) ?? logicalId;
    const clients = (await client.send(new ListUserPoolClientsCommand({ UserPoolId, MaxResults: 60 }))).UserPoolClients ?? [];
    let clientId = clients.find((c) => c.ClientName === ClientName)?.ClientId;
    if (!clientId) {
      const created = await client.send(
        new CreateUserPoolClientCommand({
          UserPoolId,
          ClientName,
          ExplicitAuthFlows: props.ExplicitAuthFlows as string[] as never,
          GenerateSecret: false,
          AccessTokenValidity: props.AccessTokenValidity as number | undefined,
          IdTokenValidity: props.IdTokenValidity as number | undefined,
          RefreshTokenValidity: props.RefreshTokenValidity as number | undefined,
          TokenValidityUnits: props.TokenValidityUnits as never,
          PreventUserExistenceErrors: props.PreventUserExistenceErrors as never,
          EnableTokenRevocation: props.EnableTokenRevocation as boolean | undefined,
        }),
      );
      clientId = created.UserPoolClient!.ClientId!;
    }
    resolver.register(logicalId, { ref: clientId, attributes: { ClientId: clientId } });
  }

  for (const [logicalId, resource] of resourcesOfType(stack, 'AWS::Cognito::UserPoolGroup')) {
    const props = resolver.resolve(resource.Properties ?? {}) as Record<string, unknown>;
    try {
      await client.send(
        new CreateGroupCommand({
          UserPoolId: props.UserPoolId as string,
          GroupName: props.GroupName as string,
          Description: props.Description as string | undefined,
          Precedence: props.Precedence as number | undefined,
        }),
      );
    } catch (err) {
      if ((err as Error).name !== 'GroupExistsException') throw err;
    }
    resolver.register(logicalId, { ref: props.GroupName as string, attributes: {} });
  }
  client.destroy();
}
