import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import type { MfaMode } from '../config';

export interface AuthProps {
  readonly mfaMode: MfaMode;
  readonly passwordMinLength: number;
  readonly refreshTokenHours: number;
  readonly domainPrefix: string;
  /** The first administrator: created with a temporary password sent by email, in the Admin group. */
  readonly adminEmail: string;
  readonly removalPolicy: RemovalPolicy;
}

/** The user pool: email sign-in, accounts created by administrators, TOTP MFA, an Admin group. */
export class Auth extends Construct {
  readonly userPool: cognito.UserPool;
  readonly client: cognito.UserPoolClient;
  readonly domain: cognito.UserPoolDomain;
  static readonly ADMIN_GROUP = 'Admin';

  constructor(scope: Construct, id: string, props: AuthProps) {
    super(scope, id);

    this.userPool = new cognito.UserPool(this, 'UserPool', {
      signInAliases: { email: true },
      signInCaseSensitive: false,
      selfSignUpEnabled: false,
      standardAttributes: {
        email: { required: true, mutable: true },
        givenName: { required: false, mutable: true },
        familyName: { required: false, mutable: true },
      },
      passwordPolicy: {
        minLength: props.passwordMinLength,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(7),
      },
      mfa: props.mfaMode === 'REQUIRED' ? cognito.Mfa.REQUIRED : cognito.Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
      userInvitation: {
        emailSubject: 'Your Caracal account',
        emailBody: 'You have been invited to Caracal. Sign in with {username} and the temporary password {####}',
      },
      removalPolicy: props.removalPolicy,
    });
    NagSuppressions.addResourceSuppressions(this.userPool, [
      {
        id: 'AwsSolutions-COG2',
        reason:
          'MFA is OPTIONAL or REQUIRED by deployment config; with OPTIONAL the app still enforces TOTP after sign-in when the organisation requires it.',
      },
      {
        id: 'AwsSolutions-COG8',
        reason: 'Threat protection needs the Cognito Plus feature plan, a cost decision left to the deploying team.',
      },
    ]);

    this.client = this.userPool.addClient('WebClient', {
      authFlows: { userSrp: true, userPassword: true },
      generateSecret: false,
      preventUserExistenceErrors: true,
      refreshTokenValidity: Duration.hours(props.refreshTokenHours),
      accessTokenValidity: Duration.hours(1),
      idTokenValidity: Duration.hours(1),
      enableTokenRevocation: true,
      // The hosted-UI OAuth flows come with single sign-on, which registers the real callback URLs.
      disableOAuth: true,
    });

    this.domain = this.userPool.addDomain('Domain', { cognitoDomain: { domainPrefix: props.domainPrefix } });

    const adminGroup = new cognito.CfnUserPoolGroup(this, 'AdminGroup', {
      userPoolId: this.userPool.userPoolId,
      groupName: Auth.ADMIN_GROUP,
      description: 'Holds every permission.',
      precedence: 0,
    });

    const admin = new cognito.CfnUserPoolUser(this, 'FirstAdmin', {
      userPoolId: this.userPool.userPoolId,
      username: props.adminEmail,
      desiredDeliveryMediums: ['EMAIL'],
      userAttributes: [
        { name: 'email', value: props.adminEmail },
        { name: 'email_verified', value: 'true' },
      ],
    });
    const membership = new cognito.CfnUserPoolUserToGroupAttachment(this, 'FirstAdminInAdminGroup', {
      userPoolId: this.userPool.userPoolId,
      groupName: Auth.ADMIN_GROUP,
      username: props.adminEmail,
    });
    membership.addResourceDependency(admin);
    membership.addResourceDependency(adminGroup);
  }
}
