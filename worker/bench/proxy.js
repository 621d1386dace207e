// Baseline for `make bench`: a minimal hand-written JavaScript proxy worker
// doing the same forward as the edge (POST form body to
// UPSTREAM_BASE_URL/<operation> with Basic auth, JSON back), without any
// validation, CORS, token or failure mapping.
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === "/healthz") {
      return new Response('{"status":"ok","data":{}}', {
        headers: { "content-type": "application/json; charset=utf-8" },
      });
    }
    const op = url.pathname.slice("/v1/".length);
    const body = request.method === "GET" ? url.search.slice(1) : await request.text();
    const res = await fetch(`${env.UPSTREAM_BASE_URL}/${op}`, {
      method: "POST",
      headers: {
        authorization: "Basic " + btoa(`${env.API_USER}:${env.API_KEY}`),
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
      },
      body,
    });
    return new Response(await res.arrayBuffer(), {
      status: res.status,
      headers: { "content-type": "application/json; charset=utf-8" },
    });
  },
};
