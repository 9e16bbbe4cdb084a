// A team server in a child process, for the kill -9 test: prints its address, then serves until
// killed. TEAM_DATA is its data folder, TEAM_PORT its port, TEAM_LEASE_MS its lease (optional).
import { startTeamServer } from '../../main/team/server';

const server = await startTeamServer({
  dataDir: process.env.TEAM_DATA ?? '',
  port: Number(process.env.TEAM_PORT ?? 0),
  ...(process.env.TEAM_LEASE_MS ? { leaseMs: Number(process.env.TEAM_LEASE_MS) } : {}),
});
process.stdout.write(`${server.url}\n`);
