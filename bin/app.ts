// The CDK app: one complete Caracal stack per configured region, with the cross-cutting policy as Aspects.
// Configuration: the local defaults when CARACAL_LOCAL=1 (the local runtime), else the JSON file named by
// CARACAL_CONFIG, else ./caracal.config.json, else the local defaults.
import { App, Aspects } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CaracalStack } from '../infra/caracal-stack';
import { DeploymentConfig, LOCAL_CONFIG, stackName, validateDeploymentConfig } from '../infra/config';
import { DeadLetterQueueAspect, EncryptionAspect, LogRetentionAspect } from '../infra/policy/aspects';
import { loadApiSchema } from '../infra/graphql-schema';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function loadConfig(): DeploymentConfig {
  if (process.env.CARACAL_LOCAL === '1') return LOCAL_CONFIG;
  const file = process.env.CARACAL_CONFIG ?? join(process.cwd(), 'caracal.config.json');
  if (!existsSync(file)) {
    if (process.env.CARACAL_CONFIG) throw new Error(`CARACAL_CONFIG names ${file}, which does not exist`);
    return LOCAL_CONFIG;
  }
  const config = { ...LOCAL_CONFIG, local: false, ...JSON.parse(readFileSync(file, 'utf8')) } as DeploymentConfig;
  return config;
}

export interface BuildOptions {
  readonly outdir?: string;
  /** The built SPA; defaults to web/dist. */
  readonly siteAssetPath?: string;
  /**
   * Bundle the functions' code (default). Template assertions turn it off: CDK then skips every asset
   * bundling step and the template is the same apart from asset hashes.
   */
  readonly bundle?: boolean;
}

export function buildApp(config: DeploymentConfig, options: BuildOptions = {}): App {
  const problems = validateDeploymentConfig(config);
  if (problems.length) throw new Error(`Invalid deployment configuration:\n- ${problems.join('\n- ')}`);
  const siteAssetPath = options.siteAssetPath ?? join(root, 'web', 'dist');
  if (!existsSync(join(siteAssetPath, 'index.html'))) {
    throw new Error(`The web app is not built (${siteAssetPath}/index.html is missing): run 'npm run build:web' first.`);
  }
  const apiSchema = loadApiSchema(join(root, 'graphql'));
  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version as string;

  const context = options.bundle === false ? { 'aws:cdk:bundling-stacks': [] } : undefined;
  const app = new App({ outdir: options.outdir, context });
  for (const region of config.regions) {
    new CaracalStack(app, stackName(config, region), {
      env: { account: config.account, region },
      config,
      version,
      schemaDefinition: apiSchema.definition,
      operations: apiSchema.operations,
      siteAssetPath,
      engineCodePath: join(root, 'functions', 'detection-engine'),
      description: `Caracal security monitoring (${config.stage}, ${region})`,
    });
  }
  Aspects.of(app).add(new LogRetentionAspect(config.logRetentionDays as logs.RetentionDays));
  Aspects.of(app).add(new EncryptionAspect());
  Aspects.of(app).add(new DeadLetterQueueAspect());
  Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
  return app;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildApp(loadConfig()).synth();
}
