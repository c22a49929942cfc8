// Use the typed client: store two chat turns, then find one by meaning and words.
//   cd clients/typescript && npm ci && npm run build
//   BASE_URL=http://127.0.0.1:8000 TOKEN=<key> USER_ID=alice node dist/example.js
// Prints the hybrid search's hits and exits 1 when the turn about the cat is not the first.
import { createMemoryClient } from "./src/index.js";

const client = createMemoryClient(process.env.BASE_URL!, process.env.TOKEN!);
const userId = process.env.USER_ID ?? "alice";

const written = await client.POST("/v1/users/{user_id}/messages", {
  params: { path: { user_id: userId } },
  body: {
    items: [
      { message_id: "ts-1", ts: "2026-11-20T09:00:00Z", role: "user", content: "我家的猫叫豆豆，最喜欢晒太阳。" },
      { message_id: "ts-2", ts: "2026-11-20T09:01:00Z", role: "user", content: "明天下午要去银行办贷款。" },
    ],
  },
});
if (written.error) throw new Error(JSON.stringify(written.error));
console.log(`written: ${written.data.created} created, ${written.data.unchanged} unchanged`);

const found = await client.POST("/v1/messages/hybrid_search", {
  body: { user_id: userId, query_text: "宠物猫", top_k: 2 },
});
if (found.error) throw new Error(JSON.stringify(found.error));
for (const item of found.data.items) console.log(item.message_id, item.content);
process.exit(found.data.items[0]?.message_id === "ts-1" ? 0 : 1);
