// usage.ts is what a user of the generated SDK writes. go test ./conformance/sdkcheck type-checks it (see
// tsconfig.json), then runs it against a stub node: node usage.js HTTP_URL WS_URL prints "ok" or fails.
import {
  Client,
  ErrorCode,
  RpcError,
  WSClient,
  requests,
  type GetBalanceResult,
  type SlotInfo,
  type Subscription,
  type WebSocketConstructor,
} from "../../generated/sdk/typescript/index.js";

declare const process: { argv: string[]; exitCode?: number };

const wallet = "83astBRguLMdt2h5U1Tpdq5tjFoJ6noeGwaY3mDLVcri";

function check(cond: boolean, what: string): asserts cond {
  if (!cond) throw new Error(`usage: ${what}`);
}

async function rejects(p: Promise<unknown>): Promise<RpcError> {
  try {
    await p;
  } catch (e) {
    check(e instanceof RpcError, `want an RpcError, got ${String(e)}`);
    return e;
  }
  throw new Error("usage: the call succeeded; want an RpcError");
}

async function main(httpURL: string, wsURL: string): Promise<void> {
  const rpc = new Client(httpURL, { headers: { "solana-client": "ledgerd-sdkcheck" } });

  // Typed calls; optional params left out or given.
  const balance: GetBalanceResult = await rpc.getBalance(wallet, { commitment: "confirmed" });
  check(balance.value === 42 && balance.context.slot === 7, `getBalance: ${JSON.stringify(balance)}`);
  const slot: number = await rpc.getSlot();
  check(slot === 7, `getSlot: ${slot}`);
  const version = await rpc.getVersion();
  check(version["solana-core"] === "2.1.16", `getVersion: ${JSON.stringify(version)}`);

  // An error reply: the node validates the params, the SDK surfaces its code and message.
  const bad = await rejects(rpc.getAccountInfo("0OIl"));
  check(bad.code === ErrorCode.InvalidParams && bad.message === "Invalid param: Invalid", `getAccountInfo: ${bad.code} ${bad.message}`);

  // A batch settles each call, in order, typed.
  const [s, b, e] = await rpc.batch([requests.getSlot(), requests.getBalance(wallet), requests.getAccountInfo("0OIl")]);
  check(s.ok && s.value === 7, `batch[0]: ${JSON.stringify(s)}`);
  check(b.ok && b.value.value === 42, `batch[1]: ${JSON.stringify(b)}`);
  check(!e.ok && e.error.code === -32602, `batch[2]: ${JSON.stringify(e)}`);
  check((await rpc.batch([])).length === 0, "an empty batch");

  // Subscriptions, with the global WebSocket passed in as a user on Node 20 passes the ws package.
  const ws = new WSClient(wsURL, { WebSocket: globalThis.WebSocket });
  const wsVersion = await ws.getVersion();
  check(wsVersion["feature-set"] === 1, `getVersion over WebSocket: ${JSON.stringify(wsVersion)}`);
  const seen: SlotInfo[] = [];
  let sub: Subscription | undefined;
  await new Promise<void>((resolve, reject) => {
    ws.slotSubscribe((info, id) => {
      check(id === sub?.id || sub === undefined, `notification of subscription ${id}`);
      seen.push(info);
      if (seen.length === 2) resolve();
    }).then((s) => (sub = s), reject);
  });
  check(sub !== undefined && sub.method === "slotSubscribe", "the subscription");
  const [first, second] = seen;
  check(first !== undefined && second?.slot === first.slot + 1 && second.parent === first.slot, `notifications: ${JSON.stringify(seen)}`);
  check((await sub.unsubscribe()) === true, "unsubscribe");
  const unknown = await rejects(ws.slotUnsubscribe(999));
  check(unknown.code === -32602, `slotUnsubscribe of an unknown id: ${unknown.code}`);
  ws.close();
}

// Never called: what must not compile.
export function typeErrors(rpc: Client, ws: WSClient, WS: WebSocketConstructor): void {
  // @ts-expect-error a pubkey is a string
  void rpc.getBalance(42);
  // @ts-expect-error no such commitment
  void rpc.getBalance(wallet, { commitment: "instant" });
  // @ts-expect-error getBalance needs its pubkey
  void rpc.getBalance();
  // @ts-expect-error a slot notification is a SlotInfo
  void ws.slotSubscribe((info: string) => info);
  // @ts-expect-error subscriptions are not HTTP methods
  void rpc.call("slotSubscribe");
  // @ts-expect-error getBalance's result has no slot
  void rpc.getBalance(wallet).then((r) => r.slot);
  void new WSClient("ws://x", { WebSocket: WS });
}

main(process.argv[2] ?? "", process.argv[3] ?? "").then(
  () => console.log("ok"),
  (e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  },
);
