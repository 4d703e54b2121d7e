// Log lines of two managed log types for the pipeline's tests, with the event time under the test's control.
export const CLOUDTRAIL = 'AWS.CloudTrail';
export const GITHUB_AUDIT = 'GitHub.Audit';

export function cloudTrailLine(eventTime: string, eventName = 'ConsoleLogin', extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    awsRegion: 'us-east-1',
    eventName,
    eventSource: 'signin.amazonaws.com',
    eventTime,
    eventType: 'AwsConsoleSignIn',
    sourceIPAddress: '203.0.113.7',
    recipientAccountId: '123456789012',
    userIdentity: { type: 'IAMUser', userName: 'alice', arn: 'arn:aws:iam::123456789012:user/alice' },
    ...extra,
  });
}

export function gitHubAuditLine(createdAt: number, action = 'repo.create'): string {
  return JSON.stringify({ action, actor: 'octocat', created_at: createdAt, repo: 'acme/widgets', org: 'acme' });
}

/** A line no JSON schema reads. */
export const UNREADABLE_LINE = 'this is not a log line any schema reads';
