"use strict";
// An example workflow as a user runs it after `npm start`: the emulator, an n8n server with this
// package, the sandbox credentials pointed at the emulator, the examples imported and published, and
// the data tables they write to created (n8n 1.x: picked by id, as a 1.x user picks them).

const fs = require("node:fs");
const path = require("node:path");

const { startSandbox } = require("../../../sandbox/server");
const { closeSuite } = require("../trigger-helpers");
const { ensureDataTables, pickDataTablesById } = require("./data-tables");
const { createInstance, packageManifest } = require("./instance");
const util = require("./util");

const CREDENTIALS_FILE = path.resolve(
  __dirname,
  "..",
  "..",
  "..",
  "examples",
  "credentials.sandbox.json",
);

/** The examples' credentials: the API credential pointed at the emulator, and the webhook trigger's signing secret. */
function sandboxCredentials(baseUrl) {
  return JSON.parse(fs.readFileSync(CREDENTIALS_FILE, "utf8")).map((c) =>
    c.type === "verificationServicesApi"
      ? { ...c, data: { ...c.data, sandboxBaseUrl: baseUrl } }
      : c,
  );
}

/**
 * Starts the emulator and an n8n server running `workflows`. Resolves with { sandbox, instance,
 * server, base (the server's URL), tables (data table ids by name) }; when a step fails, what was
 * started is closed (the n8n folder kept for inspection) before the error is thrown.
 */
async function startExampleServer(version, { name, log, workflows }) {
  const manifest = packageManifest();
  if (!manifest.complete)
    throw new Error(
      `build the package first (npm run build); missing: ${manifest.missing.join(", ")}`,
    );
  const started = {};
  try {
    started.sandbox = await startSandbox({
      port: 0,
      host: "127.0.0.1",
      config: { latencyMs: 0 },
    });
    started.instance = await createInstance(version, { name, log });
    await started.instance.importCredentials(
      sandboxCredentials(started.sandbox.baseUrl),
    );
    await started.instance.importWorkflows(workflows);
    const port = await util.freePort();
    const base = `http://127.0.0.1:${port}`;
    const server = await started.instance.startServer({
      port,
      env: { WEBHOOK_URL: `${base}/`, N8N_WEBHOOK_URL: `${base}/` },
    });
    await server.ensureLoggedIn();
    const tables = {};
    for (const workflow of workflows) {
      const ids = await ensureDataTables(server, workflow);
      Object.assign(tables, ids);
      if (version === "v1" && Object.keys(ids).length)
        await pickDataTablesById(server, workflow.id, ids);
    }
    for (const workflow of workflows)
      await server.activateWorkflow(workflow.id);
    return { ...started, server, base, tables };
  } catch (error) {
    await closeSuite({ ...started, failed: true, log }).catch(() => {});
    throw error;
  }
}

module.exports = { sandboxCredentials, startExampleServer };
