// The local mailbox as a page (/local/mailbox): what the user pool "emailed", newest first, so a person can
// finish an invitation or a password reset without reading the terminal.
import type { MailMessage } from './cognito';

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function item(message: MailMessage): string {
  const code = message.code ? `<p class="code">Code: <code>${escape(message.code)}</code></p>` : '';
  return `<li><article>
  <header><strong>${escape(message.subject)}</strong><span>to ${escape(message.to)}</span><time datetime="${escape(message.at)}">${escape(message.at)}</time></header>
  <p>${escape(message.body)}</p>${code}
</article></li>`;
}

export function mailboxPage(messages: readonly MailMessage[]): string {
  const newestFirst = [...messages].reverse();
  const list = newestFirst.length
    ? `<ol>${newestFirst.map(item).join('\n')}</ol>`
    : '<p class="empty">No messages yet. Invitations and password reset codes appear here.</p>';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Local mailbox · Caracal</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;background:#15171c;color:#e6e6e6}
main{max-width:760px;margin:0 auto;padding:32px 16px}
h1{font-size:22px;margin:0 0 4px}.lead{color:#9aa0aa;margin:0 0 24px}
ol{list-style:none;padding:0;margin:0}li{margin:0 0 12px}
article{background:#1e2128;border:1px solid #2d313a;border-radius:10px;padding:14px 16px}
header{display:flex;gap:12px;flex-wrap:wrap;align-items:baseline}header span,time{color:#9aa0aa;font-size:13px}
time{margin-left:auto}p{margin:8px 0 0;word-break:break-word}
code{font:600 17px ui-monospace,monospace;background:#2b2f38;padding:2px 8px;border-radius:6px;user-select:all}
.empty{color:#9aa0aa}
</style></head>
<body><main>
<h1>Local mailbox</h1>
<p class="lead">What Cognito would have emailed on AWS, newest first. Also at <a href="/local/mailbox.json" style="color:#f0a45d">/local/mailbox.json</a>. Reload to see new messages.</p>
${list}
</main></body></html>`;
}
