"""PyPI `asgi-idempotency-header` 0.2.0 in front of a two-endpoint Starlette app, as its README
shows it: the store is keyed by the header value alone. Listens on the port given as its first
argument; runs with the pinned libraries of tests/differential/setup.sh."""
import sys, uuid
import uvicorn
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.responses import JSONResponse
from starlette.routing import Route
from idempotency_header_middleware import IdempotencyHeaderMiddleware
from idempotency_header_middleware.backends.memory import MemoryBackend

def create(prefix):
    async def endpoint(request):
        body = await request.json()
        return JSONResponse({"id": prefix + uuid.uuid4().hex, **body}, status_code=201)
    return endpoint

app = Starlette(
    routes=[Route("/payments", create("pay_"), methods=["POST"]), Route("/refunds", create("re_"), methods=["POST"])],
    middleware=[Middleware(IdempotencyHeaderMiddleware, backend=MemoryBackend())],
)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
