import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { suppressStackSingleton } from '../policy/nag';
import { contentSecurityPolicy } from '../../core/content-security-policy';
import type { WebConfig } from '../../core/web-config';
import { secureBucket } from '../policy/resources';

export interface WebProps {
  readonly removalPolicy: RemovalPolicy;
  readonly accessLogs: s3.IBucket;
  /** The built SPA (`web/dist`). */
  readonly siteAssetPath: string;
  /** Written beside the SPA as `config.json` at deploy time (tokens resolve on deploy). */
  readonly config: WebConfig;
  /**
   * The bucket the browser uploads files to by pre-signed PUT (lookup-table data, to the lake bucket): the policy
   * lets the SPA connect to its regional endpoint (https://<bucket>.s3.<region>.amazonaws.com), as the SDK signs it.
   */
  readonly uploadBucket?: s3.IBucket;
}

/** The SPA behind CloudFront: private bucket with origin access control, security headers, SPA fallback. */
export class Web extends Construct {
  readonly distribution: cloudfront.Distribution;
  readonly siteBucket: s3.Bucket;

  constructor(scope: Construct, id: string, props: WebProps) {
    super(scope, id);
    this.siteBucket = secureBucket(this, 'SiteBucket', { removalPolicy: props.removalPolicy, accessLogs: props.accessLogs });

    // The SPA calls its GraphQL API, the Cognito user-pool API of its region (as Amplify names it) and, when it
    // uploads files, its upload bucket's regional endpoint; nothing else.
    const { region, urlSuffix } = Stack.of(this);
    const endpoints = [props.config.graphqlUrl, `https://cognito-idp.${region}.${urlSuffix}`];
    if (props.uploadBucket) endpoints.push(`https://${props.uploadBucket.bucketRegionalDomainName}`);
    const headers = new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
      securityHeadersBehavior: {
        contentSecurityPolicy: {
          contentSecurityPolicy: contentSecurityPolicy(endpoints),
          override: true,
        },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.days(730),
          includeSubdomains: true,
          preload: true,
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN, override: true },
        xssProtection: { protection: true, modeBlock: true, override: true },
      },
    });

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.siteBucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        responseHeadersPolicy: headers,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
      },
      errorResponses: [403, 404].map((httpStatus) => ({
        httpStatus,
        responseHttpStatus: 200,
        responsePagePath: '/index.html',
        ttl: Duration.seconds(0),
      })),
      enableLogging: true,
      logBucket: props.accessLogs,
      logFilePrefix: 'cloudfront/',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
    });
    NagSuppressions.addResourceSuppressions(this.distribution, [
      { id: 'AwsSolutions-CFR1', reason: 'Analysts sign in from anywhere; access is controlled by Cognito, not geography.' },
      {
        id: 'AwsSolutions-CFR2',
        reason: 'The distribution serves static files only; the API is AppSync with its own auth. A WAF is optional.',
      },
      {
        id: 'AwsSolutions-CFR4',
        reason:
          'The default CloudFront certificate allows TLSv1 to old viewers; a custom domain with TLS 1.2 is a deployment option.',
      },
    ]);

    new s3deploy.BucketDeployment(this, 'Deploy', {
      destinationBucket: this.siteBucket,
      sources: [s3deploy.Source.asset(props.siteAssetPath), s3deploy.Source.jsonData('config.json', props.config)],
      distribution: this.distribution,
      distributionPaths: ['/index.html', '/config.json'],
      memoryLimit: 512,
    });
    suppressStackSingleton(this, 'Custom::CDKBucketDeployment', [
      { id: 'AwsSolutions-IAM4', reason: "CDK's site-deployment custom resource uses AWSLambdaBasicExecutionRole." },
      {
        id: 'AwsSolutions-IAM5',
        reason: "CDK's site-deployment custom resource copies every object of the asset into the site bucket.",
      },
      {
        id: 'AwsSolutions-L1',
        reason: "CDK's site-deployment custom resource pins the Python runtime its bundled AWS CLI layer supports.",
      },
    ]);
  }
}
