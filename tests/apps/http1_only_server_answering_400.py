"""An HTTP/1.1-only server on a free loopback port (printed on the first line of stdout),
answering whatever it reads (the HTTP/2 preface among it) with `400 Bad Request`, as h11
(uvicorn) and most HTTP/1.1 servers do."""
import socketserver


class Handler(socketserver.BaseRequestHandler):
    def handle(self):
        self.request.recv(65536)
        self.request.sendall(b'HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\n\r\n')


server = socketserver.ThreadingTCPServer(('127.0.0.1', 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
