// The Content-Security-Policy of the SPA, served by CloudFront on AWS and by the local runtime. Everything the
// app runs, styles and loads comes from its own origin (Monaco's worker included, built by Vite); the only
// other places it may call are the deployment's own endpoints: its GraphQL API and its Cognito user pool.
// Styles allow 'unsafe-inline': Mantine and Monaco inject <style> elements at run time and echarts writes its
// tooltips with style attributes; scripts never do (no inline script, no eval). Images may be data: URLs, as
// Monaco draws its error squiggles.

/**
 * The `Content-Security-Policy` header value for the SPA. `endpoints` are the URLs it calls besides its own
 * origin (a URL with a path allows that path only); CDK tokens resolve at deploy time.
 */
export function contentSecurityPolicy(endpoints: readonly string[]): string {
  // A wildcard would open the policy to anyone's bucket or API; a space, comma, semicolon or quote would
  // smuggle in another source or directive.
  for (const endpoint of endpoints) {
    if (!endpoint || /[\s;,*']/.test(endpoint))
      throw new Error(`A Content-Security-Policy endpoint must be one URL, without wildcards: '${endpoint}'`);
  }
  const directives: Array<[string, ...string[]]> = [
    ['default-src', "'self'"],
    ['script-src', "'self'"],
    ['style-src', "'self'", "'unsafe-inline'"],
    ['img-src', "'self'", 'data:'],
    ['font-src', "'self'"],
    ['worker-src', "'self'"],
    ['connect-src', "'self'", ...endpoints],
    ['object-src', "'none'"],
    ['frame-src', "'none'"],
    ['frame-ancestors', "'none'"],
    ['base-uri', "'self'"],
    ['form-action', "'self'"],
  ];
  return directives.map((directive) => directive.join(' ')).join('; ');
}
