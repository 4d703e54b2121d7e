// Reads the cloud assembly `cdk synth` wrote and resolves CloudFormation intrinsics against the physical
// names and attributes of the resources the local runtime has brought up.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Resource {
  readonly Type: string;
  readonly Properties?: Record<string, unknown>;
  readonly DependsOn?: string | string[];
  readonly Metadata?: Record<string, unknown>;
}

export interface StackTemplate {
  readonly stackName: string;
  readonly account: string;
  readonly region: string;
  readonly resources: Record<string, Resource>;
  /** The cloud assembly folder, where `asset.<hash>` folders live. */
  readonly assemblyDir: string;
}

interface Manifest {
  artifacts: Record<string, { type: string; environment?: string; properties?: { templateFile?: string } }>;
}

/** Every CloudFormation stack in the assembly at `dir`. */
export function readAssembly(dir: string): StackTemplate[] {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
  const stacks: StackTemplate[] = [];
  for (const [name, artifact] of Object.entries(manifest.artifacts)) {
    if (artifact.type !== 'aws:cloudformation:stack' || !artifact.properties?.templateFile) continue;
    const [, account, region] = /^aws:\/\/([^/]+)\/(.+)$/.exec(artifact.environment ?? '') ?? [];
    const template = JSON.parse(readFileSync(join(dir, artifact.properties.templateFile), 'utf8'));
    stacks.push({ stackName: name, account, region, resources: template.Resources ?? {}, assemblyDir: dir });
  }
  return stacks;
}

export function resourcesOfType(stack: StackTemplate, type: string): Array<[string, Resource]> {
  return Object.entries(stack.resources).filter(([, r]) => r.Type === type);
}

/** Physical identity of one provisioned resource: what `Ref` returns and its `Fn::GetAtt` attributes. */
export interface Physical {
  readonly ref: string;
  readonly attributes: Record<string, string>;
}

/** Types the runtime brings up; a reference to one before it is up is an ordering error. */
const PROVISIONED = new Set([
  'AWS::DynamoDB::Table',
  'AWS::DynamoDB::GlobalTable',
  'AWS::S3::Bucket',
  'AWS::SQS::Queue',
  'AWS::Cognito::UserPool',
  'AWS::Cognito::UserPoolClient',
  'AWS::Cognito::UserPoolGroup',
  'AWS::Lambda::Function',
  'AWS::AppSync::GraphQLApi',
]);

export class Resolver {
  private readonly physical = new Map<string, Physical>();

  constructor(private readonly stack: StackTemplate) {}

  register(logicalId: string, physical: Physical): void {
    this.physical.set(logicalId, physical);
  }

  lookup(logicalId: string): Physical | undefined {
    return this.physical.get(logicalId);
  }

  /** Resolves intrinsic functions in `value`, deeply. Unknown references are an error naming them. */
  resolve(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((v) => this.resolve(v));
    if (value === null || typeof value !== 'object') return value;
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj);
    if (keys.length === 1) {
      const [key] = keys;
      const arg = obj[key];
      switch (key) {
        case 'Ref':
          return this.ref(arg as string);
        case 'Fn::GetAtt': {
          const [id, attr] = Array.isArray(arg) ? (arg as string[]) : String(arg).split(/\.(.+)/);
          return this.getAtt(id, attr);
        }
        case 'Fn::Join': {
          const [sep, parts] = arg as [string, unknown[]];
          return (this.resolve(parts) as unknown[]).join(sep);
        }
        case 'Fn::Select': {
          const [index, list] = arg as [number | string, unknown];
          return (this.resolve(list) as unknown[])[Number(this.resolve(index))];
        }
        case 'Fn::Split': {
          const [sep, source] = arg as [string, unknown];
          return String(this.resolve(source)).split(sep);
        }
        case 'Fn::Sub':
          return this.sub(arg);
        case 'Fn::If':
        case 'Fn::ImportValue':
          throw new Error(`${key} is not supported by the local runtime (${this.stack.stackName})`);
      }
    }
    return Object.fromEntries(keys.map((k) => [k, this.resolve(obj[k])]));
  }

  private ref(id: string): string {
    switch (id) {
      case 'AWS::Region':
        return this.stack.region;
      case 'AWS::AccountId':
        return this.stack.account;
      case 'AWS::Partition':
        return 'aws';
      case 'AWS::URLSuffix':
        return 'amazonaws.com';
      case 'AWS::StackName':
        return this.stack.stackName;
      case 'AWS::NoValue':
        return '';
    }
    const p = this.physical.get(id) ?? this.placeholder(id);
    if (!p) throw new Error(`Ref to ${id}, which the local runtime has not provisioned`);
    return p.ref;
  }

  /**
   * Resources the runtime does not bring up (IAM roles, log groups, CloudFront, ...) still resolve, to
   * their logical id and a placeholder ARN, so that properties mentioning them can be read.
   */
  private placeholder(id: string): Physical | undefined {
    const resource = this.stack.resources[id];
    if (!resource || PROVISIONED.has(resource.Type)) return undefined;
    const service = resource.Type.split('::')[1]?.toLowerCase() ?? 'custom';
    const arn = `arn:aws:${service}:${this.stack.region}:${this.stack.account}:${id}`;
    return { ref: id, attributes: new Proxy({ Arn: arn }, { get: (t, k: string) => (k in t ? t[k as 'Arn'] : id) }) };
  }

  private getAtt(id: string, attr: string): string {
    const p = this.physical.get(id) ?? this.placeholder(id);
    const value = p?.attributes[attr];
    if (value === undefined) throw new Error(`Fn::GetAtt ${id}.${attr} is not known to the local runtime`);
    return value;
  }

  private sub(arg: unknown): string {
    const [text, vars] = Array.isArray(arg) ? (arg as [string, Record<string, unknown>]) : [arg as string, {}];
    return text.replace(/\$\{([^}!]+)\}/g, (_, name: string) => {
      if (name in vars) return String(this.resolve(vars[name]));
      return name.includes('.') ? this.getAtt(...(name.split(/\.(.+)/) as [string, string])) : this.ref(name);
    });
  }
}

/** A physical name for a resource the template leaves unnamed: stable across restarts. */
export function physicalName(stack: StackTemplate, logicalId: string, maxLength: number, lowercase = false): string {
  const name = `${stack.stackName}-${logicalId}`.slice(0, maxLength);
  return lowercase ? name.toLowerCase() : name;
}
