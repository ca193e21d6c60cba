// A registered bot in JavaScript (Node 20, no dependencies): a random legal move in every game it is seated in.
//
//   REFEREE_URL=http://127.0.0.1:8000 BOT_TOKEN=bot_… node clients/js/examples/bot.mjs
import { Referee, concrete, runBot } from "../referee.mjs";

const ref = new Referee(process.env.REFEREE_URL ?? "http://127.0.0.1:8000");
const pick = (moves) => moves[Math.floor(Math.random() * moves.length)];
const say = { deal_over: (d) => `deal ${d.deal}: place ${d.place}`, game_end: (d) => `over: ${d.reason}` };
await runBot(ref, process.env.BOT_TOKEN, (turn) => concrete(pick(turn.legal_moves.moves)), {
  onEvent: ({ event, data }) => say[event] && console.log(`game ${data.game_id} ${say[event](data)}`),
});
