// Detection engine throughput: events per second through representative rules, as a ratio against a
// bare Python loop calling the same rule functions (building the same event objects) in the same
// run; the latency of a run in the sandbox (a child forked per run) against the same run in-process, for
// a large and a small batch, and of a sandbox's start; then the engine behind the worker protocol, the wall time of a full `caracal test` over the
// fixture repository against the start-up floor of the CLI (node + tsx + python3), and a generated
// corpus-sized repository with one Python worker against two.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DetectionWorker } from '../functions/detection-engine/worker-client';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const engineDir = join(root, 'functions/detection-engine');
const fixtures = join(root, 'tests/engine/fixtures/analysis');

// Representative rules in the style of the panther-analysis corpus: field checks, deep_get,
// deep_walk, udm over a data model, a global helper, regular expressions, and alerting rules whose
// title/dedup/alert_context run on matches; plus one simple (YAML) detection.
const PYTHON = String.raw`
import json, os, random, sys, time
sys.path.insert(0, os.environ["ENGINE_DIR"])
from caracal_engine.engine import Engine
from caracal_engine.event import PantherEvent
from caracal_engine.host import Host

RULES = {
"Root.Activity": '''
def rule(event):
    return event.deep_get("userIdentity", "type") == "Root" and event.get("eventType") != "AwsServiceEvent"
def title(event):
    return f"Root activity: {event.get('eventName')}"
def alert_context(event):
    return {"ip": event.get("sourceIPAddress"), "arn": event.deep_get("userIdentity", "arn")}
''',
"Sensitive.API": '''
SENSITIVE = {"DeleteTrail", "StopLogging", "PutBucketPolicy", "DeleteFlowLogs", "CreateAccessKey"}
def rule(event):
    return event.get("eventName") in SENSITIVE and not event.get("errorCode")
def dedup(event):
    return event.deep_get("userIdentity", "arn", default="unknown")
''',
"Tags.Walk": '''
def rule(event):
    names = event.deep_walk("resources", "tags", "key", default=[])
    return "public" in (names if isinstance(names, list) else [names])
''',
"UDM.Actor": '''
from bench_helpers import is_admin_name
def rule(event):
    return is_admin_name(event.udm("actor_user")) and event.udm("source_ip") is not None
def title(event):
    return f"Admin {event.udm('actor_user')} from {event.udm('source_ip')}"
''',
"Regex.UserAgent": '''
import re
PATTERN = re.compile(r"(sqlmap|nikto|curl/7\.[0-9]+)", re.IGNORECASE)
def rule(event):
    return bool(PATTERN.search(event.get("userAgent", "")))
''',
"Console.Failure": '''
def rule(event):
    return (event.get("eventName") == "ConsoleLogin"
            and event.deep_get("responseElements", "ConsoleLogin") == "Failure")
def severity(event):
    return "HIGH" if event.deep_get("additionalEventData", "MFAUsed") == "No" else "DEFAULT"
''',
}
SIMPLE = [
    {"KeyPath": "eventSource", "Condition": "Equals", "Value": "s3.amazonaws.com"},
    {"KeyPath": "requestParameters.bucketName", "Condition": "StartsWith", "Value": "prod-"},
    {"KeyPath": "sourceIPAddress", "Condition": "IsIPAddressPublic"},
]

def make_events(n):
    # A realistic stream: most events are routine, a few percent match some rule.
    rnd = random.Random(7)
    routine = ["GetObject", "PutObject", "ListBuckets", "AssumeRole", "DescribeInstances", "GetCallerIdentity"]
    rare = ["ConsoleLogin", "DeleteTrail", "CreateAccessKey", "StopLogging"]
    def pick(common, uncommon, p):
        return rnd.choice(uncommon) if rnd.random() < p else rnd.choice(common)
    events = []
    for i in range(n):
        events.append({
            "p_log_type": "AWS.CloudTrail",
            "eventName": pick(routine, rare, 0.05),
            "eventSource": rnd.choice(["s3.amazonaws.com", "iam.amazonaws.com", "ec2.amazonaws.com", "sts.amazonaws.com"]),
            "eventType": "AwsApiCall",
            "sourceIPAddress": rnd.choice(["203.0.113.%d" % (i % 250), "10.0.0.%d" % (i % 250)]),
            "userAgent": pick(["aws-cli/2.0", "Mozilla/5.0", "Boto3/1.26"], ["sqlmap/1.5", "curl/7.68.0"], 0.02),
            "userIdentity": {"type": pick(["IAMUser", "AssumedRole"], ["Root"], 0.02), "arn": "arn:aws:iam::123:user/u%d" % (i % 40),
                             "userName": pick(["bob", "carl", "dina"], ["admin-ann"], 0.03)},
            "requestParameters": {"bucketName": pick(["dev-logs", "team-data"], ["prod-logs"], 0.1)},
            "responseElements": {"ConsoleLogin": rnd.choice(["Success", "Failure"])},
            "additionalEventData": {"MFAUsed": rnd.choice(["Yes", "No"])},
            "resources": [{"tags": [{"key": pick(["team", "env"], ["public"], 0.02)}]} for _ in range(rnd.randint(0, 3))],
            "errorCode": rnd.choice([None, None, None, "AccessDenied"]),
        })
    return events

def best_wall(function, rounds):
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best

def sandbox_latency(content, events):
    """Best wall time of a run in-process and in the sandbox, for the whole batch and for 10 events; and a
    sandbox's start (spawn, preload, lockdown, compile) against loading the content in-process."""
    host = Host()
    try:
        versioned = {**content, "version": "bench"}
        start = time.perf_counter()
        host.prepare(versioned)
        sandbox_start = time.perf_counter() - start
        start = time.perf_counter()
        Engine().load(content)
        in_process_load = time.perf_counter() - start
        figures = {"sandboxStart": sandbox_start, "inProcessLoad": in_process_load}
        for label, batch in (("large", events), ("small", events[:10])):
            engine = Engine()
            engine.load(content)
            figures[label] = {"events": len(batch), "inProcess": best_wall(lambda: engine.run(batch), 5),
                              "sandbox": best_wall(lambda: host.run(versioned, batch), 5)}
        return figures
    finally:
        host.close()

def main():
    detections = []
    for rule_id, source in RULES.items():
        detections.append({"id": rule_id, "analysisType": "rule", "severity": "Medium", "logTypes": ["AWS.CloudTrail"], "body": source})
    detections.append({"id": "Simple.S3", "analysisType": "rule", "severity": "Low", "logTypes": ["AWS.CloudTrail"], "detection": SIMPLE})
    content = {
        "globals": [{"id": "bench_helpers", "body": "def is_admin_name(name):\n    return isinstance(name, str) and name.startswith('admin')\n"}],
        "dataModels": [{"id": "CT", "logTypes": ["AWS.CloudTrail"], "mappings": [
            {"Name": "actor_user", "Path": "$.userIdentity.userName"}, {"Name": "source_ip", "Path": "$.sourceIPAddress"}]}],
        "detections": detections,
    }
    engine = Engine()
    report = engine.load(content)
    assert not report["errors"], report
    events = make_events(int(os.environ.get("EVENTS", "4000")))
    model = engine.data_models["AWS.CloudTrail"]
    loaded = list(engine.detections.values())
    aux_names = ("title", "description", "reference", "severity", "runbook", "destinations", "dedup", "alert_context", "unique")
    plan = [(d.matcher, [d.functions[n] for n in aux_names if n in d.functions]) for d in loaded]

    def bare():
        matches = 0
        for data in events:
            event = PantherEvent(data, model)
            for rule, aux in plan:
                if rule(event):
                    matches += 1
                    for function in aux:
                        function(event)
        return matches

    def through_engine():
        out = engine.run(events)
        return sum(1 for per_event in out["results"] for r in per_event if r["matched"])

    assert bare() == through_engine(), "the engine and the bare loop disagree"
    # Paired rounds, alternating which runs first, timed in process CPU time; the ratio is the median
    # of the per-round ratios, which a shared, noisy machine disturbs far less than wall-clock minimums.
    rounds = int(os.environ.get("ROUNDS", "11"))
    bare_times, engine_times, ratios = [], [], []
    for round_number in range(rounds):
        pair = [("bare", bare), ("engine", through_engine)]
        if round_number % 2:
            pair.reverse()
        took = {}
        for label, function in pair:
            start = time.process_time()
            function()
            took[label] = time.process_time() - start
        bare_times.append(took["bare"])
        engine_times.append(took["engine"])
        ratios.append(took["engine"] / took["bare"])
    ratios.sort()
    print(json.dumps({"events": len(events), "detections": len(loaded), "matches": bare(), "bare": min(bare_times), "engine": min(engine_times),
                      "ratio": ratios[len(ratios) // 2], "events_json": json.dumps(events), "content": content,
                      "sandbox": sandbox_latency(content, events)}))

main()
`;

interface PythonFigures {
  events: number;
  matches: number;
  detections: number;
  bare: number;
  engine: number;
  ratio: number;
  events_json: string;
  content: Record<string, unknown>;
  sandbox: {
    sandboxStart: number;
    inProcessLoad: number;
    large: { events: number; inProcess: number; sandbox: number };
    small: { events: number; inProcess: number; sandbox: number };
  };
}

function timed(command: string, args: string[]): number {
  const start = performance.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'ignore' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}`);
  return performance.now() - start;
}

async function main(): Promise<void> {
  const python = spawnSync('python3', ['-'], {
    input: PYTHON,
    env: { ...process.env, ENGINE_DIR: engineDir },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (python.status !== 0) throw new Error(python.stderr.toString());
  const figures = JSON.parse(python.stdout.toString()) as PythonFigures;
  const perSecond = (seconds: number) => Math.round(figures.events / seconds);
  console.log(
    `engine: ${figures.detections} detections (6 Python rules, 1 simple detection) over ${figures.events} events (${figures.matches} matches), 11 paired rounds`,
  );
  console.log(`  bare Python loop (baseline): ${perSecond(figures.bare)} events/s (best round, CPU time)`);
  console.log(
    `  engine.run in-process:       ${perSecond(figures.engine)} events/s (best round, CPU time) — ${figures.ratio.toFixed(2)}x the bare loop's time, median of paired rounds (target <= 1.5x)`,
  );

  const { sandbox } = figures;
  const ms = (seconds: number) => `${(seconds * 1000).toFixed(1)} ms`;
  for (const batch of [sandbox.large, sandbox.small]) {
    console.log(
      `  a run of ${batch.events} events in the sandbox (a child forked per run): ${ms(batch.sandbox)} — ${(batch.sandbox / batch.inProcess).toFixed(2)}x the same run in-process (${ms(batch.inProcess)}, best of 5, wall clock)`,
    );
  }
  console.log(
    `  a sandbox's start (spawn, preload, lockdown, compile the content): ${ms(sandbox.sandboxStart)} — ${(sandbox.sandboxStart / sandbox.inProcessLoad).toFixed(1)}x loading the content in-process (${ms(sandbox.inProcessLoad)})`,
  );

  const worker = new DetectionWorker();
  await worker.request('load', { content: figures.content });
  const events = JSON.parse(figures.events_json) as unknown[];
  let best = Infinity;
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    await worker.request('run', { events });
    best = Math.min(best, (performance.now() - start) / 1000);
  }
  worker.close();
  console.log(
    `  through the worker protocol:  ${perSecond(best)} events/s wall clock — ${(best / figures.bare).toFixed(2)}x the bare loop's best CPU time (Node, pipes and JSON both ways included)`,
  );

  const cli = [join(root, 'bin/caracal.ts'), 'test', fixtures];
  const floor: number[] = [];
  const full: number[] = [];
  for (let i = 0; i < 3; i++) {
    floor.push(
      timed(process.execPath, ['--import', 'tsx', '-e', '']) +
        timed('python3', ['-c', 'import sys; sys.path.insert(0, "functions/detection-engine"); import caracal_engine.engine']),
    );
    full.push(timed(process.execPath, ['--import', 'tsx', ...cli]));
  }
  const best2 = (values: number[]) => Math.min(...values);
  console.log(
    `caracal test over the fixture repository (33 tests): ${best2(full).toFixed(0)} ms — ${(best2(full) / best2(floor)).toFixed(2)}x the start-up floor (node+tsx and python3 with the engine imported: ${best2(floor).toFixed(0)} ms)`,
  );

  const synthetic = syntheticRepository(300, 4);
  try {
    const one = timed(process.execPath, ['--import', 'tsx', join(root, 'bin/caracal.ts'), 'test', synthetic, '--workers', '1']);
    const two = timed(process.execPath, ['--import', 'tsx', join(root, 'bin/caracal.ts'), 'test', synthetic, '--workers', '2']);
    console.log(
      `caracal test over a generated repository (300 rules, 1200 tests): ${one.toFixed(0)} ms with one worker (${Math.round(1200 / (one / 1000))} tests/s), ${two.toFixed(0)} ms with two — ${(two / one).toFixed(2)}x`,
    );
  } finally {
    rmSync(synthetic, { recursive: true, force: true });
  }
}

/** A repository in the panther-analysis layout: rules with a shared helper, a data model and tests. */
function syntheticRepository(rules: number, testsPerRule: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'caracal-bench-'));
  mkdirSync(join(dir, 'rules'));
  writeFileSync(join(dir, 'helpers.yml'), 'AnalysisType: global\nGlobalID: bench_helpers\nFilename: helpers.py\n');
  writeFileSync(
    join(dir, 'helpers.py'),
    'def is_risky(name):\n    return name.startswith("Delete") or name.startswith("Stop")\n',
  );
  writeFileSync(
    join(dir, 'model.yml'),
    'AnalysisType: datamodel\nDataModelID: Bench.Model\nEnabled: true\nLogTypes: [Bench.Log]\nMappings:\n  - Name: actor_user\n    Path: $.user.name\n',
  );
  for (let i = 0; i < rules; i++) {
    const tests = Array.from({ length: testsPerRule }, (_, t) => {
      const risky = t % 2 === 0;
      return `  - Name: case ${t}\n    ExpectedResult: ${risky}\n    Log:\n      p_log_type: Bench.Log\n      eventName: ${risky ? 'Delete' : 'Get'}Thing${i}\n      user:\n        name: user${t}\n      detail:\n        items: [{id: ${t}}, {id: ${t + 1}}]\n`;
    }).join('');
    writeFileSync(
      join(dir, 'rules', `rule_${i}.yml`),
      `AnalysisType: rule\nRuleID: Bench.Rule${i}\nEnabled: true\nFilename: rule_${i}.py\nLogTypes: [Bench.Log]\nSeverity: Medium\nTests:\n${tests}`,
    );
    writeFileSync(
      join(dir, 'rules', `rule_${i}.py`),
      `from bench_helpers import is_risky\n\n\ndef rule(event):\n    return is_risky(event.get("eventName", "")) and event.udm("actor_user") is not None\n\n\ndef title(event):\n    return f"{event.udm('actor_user')} ran {event.get('eventName')} ({event.deep_walk('detail', 'items', 'id')})"\n`,
    );
  }
  return dir;
}

await main();
