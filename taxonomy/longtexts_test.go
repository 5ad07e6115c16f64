package taxonomy_test

import "errors"

// longTexts are long error texts without a status, as users paste them:
// stack traces of Java and Python clients, a CDN's block page, an
// exception group from a server. Each is a real text from a GitHub issue
// (cut where the excerpt ends), the kind of text every rule reads
// to its end when nothing decides early. BenchmarkClassifyLongText
// measures them.
func longTexts() []error {
	return []error{
		// TheoKanning/openai-java#252: OkHttp's HTTP/2 read timeout.
		errors.New("2023-04-12 21:04:25 java.net.SocketTimeoutException: timeout\n" +
			"2023-04-12 21:04:25     at okhttp3.internal.http2.Http2Stream$StreamTimeout.newTimeoutException(Http2Stream.kt:675) ~[okhttp-4.10.0.jar!/:na]\n" +
			"2023-04-12 21:04:25     at okhttp3.internal.http2.Http2Stream$StreamTimeout.exitAndThrowIfTimedOut(Http2Stream.kt:684) ~[okhttp-4.10.0.jar!/:na]\n" +
			"2023-04-12 21:04:25     at okhttp3.internal.http2.Http2Stream.takeHeaders(Http2Stream.kt:143) ~[okhttp-4.10.0.jar!/:na]\n" +
			"2023-04-12 21:04:25     at okhttp3.internal.http2.Http2ExchangeCodec.readResponseHeaders(Http2ExchangeCodec.kt:96) ~[okhttp-4.10.0.jar!/:na]\n" +
			"2023-04-12 21:04:25     at okhttp3.internal.connection.Exchange.readResponseHeaders(Exchange.kt:106) ~[okhttp-4.10.0.jar!/:na]\n" +
			"2023-04-12 21:04:25     at okhttp3.internal.http.CallServerInterceptor.intercept(CallServerInterceptor.kt:79) ~[okhttp-4.10.0.jar!/:na]\n" +
			"2023-04-12 21:04:25     at okhttp3.internal.http.RealInterceptorChain.proceed(RealInterceptorChain.kt:109) ~[okhttp-4.10.0.jar!/:na]\n" +
			"2023-04-12 21:04:25     at okhttp3.internal.connection.ConnectInterceptor.intercept(ConnectInterceptor.kt:34) ~[okhttp-4.10.0.jar!/:na]\n" +
			"2023-04-12 21:04:25     at okhttp3.internal.http.RealInterceptorChain.proceed(RealInterceptorChain.kt:109) ~[okhttp-4.10.0.jar!/:na]\n" +
			"2023-04-12 21:04:25     at okhttp3.internal.cache.CacheInterceptor.intercept(CacheInterceptor.kt:95) ~[okhttp-4.10.0."),
		// langchain4j/langchain4j-examples#20: LangChain4j's retry around OkHttp's call timeout.
		errors.New("[main] dev.langchain4j.internal.RetryUtils.withRetry()\n" +
			"WARN: Exception was thrown on attempt 1 of 3: java.lang.RuntimeException: java.io.InterruptedIOException: timeout\n" +
			"\tat dev.ai4j.openai4j.SyncRequestExecutor.execute(SyncRequestExecutor.java:31)\n" +
			"\tat dev.ai4j.openai4j.RequestExecutor.execute(RequestExecutor.java:59)\n" +
			"\tat dev.langchain4j.model.openai.OpenAiChatModel.lambda$generate$0(OpenAiChatModel.java:124)\n" +
			"\tat dev.langchain4j.internal.RetryUtils.withRetry(RetryUtils.java:26)\n" +
			"\tat dev.langchain4j.model.openai.OpenAiChatModel.generate(OpenAiChatModel.java:124)\n" +
			"\tat dev.langchain4j.model.openai.OpenAiChatModel.generate(OpenAiChatModel.java:88)\n" +
			"\tat dev.langchain4j.chain.ConversationalRetrievalChain.execute(ConversationalRetrievalChain.java:65)\n" +
			"\tat ChatWithDocumentsExamples$IfYouNeedSimplicity.main(ChatWithDocumentsExamples.java:62)\n" +
			"Caused by: java.io.InterruptedIOException: timeout\n" +
			"\tat okhttp3.internal.connection.RealCall.timeoutExit(RealCall.kt:398)\n" +
			"\tat okhttp3.internal.connection.RealCall.callDone(RealCall.kt:360)\n" +
			"\tat okhttp3.internal.connection.RealCall.noMoreExchanges$okhttp(RealCall.kt:325)\n" +
			"\tat okhttp3.internal.connection.RealCall.getResponseWithInterceptorChain$okhttp(RealCall.kt:209)\n" +
			"\tat okhttp3.internal.connection.RealCall.execute(RealCall.kt:15"),
		// lov3smu/hw_seckill#37: a Python traceback through urllib3's TLS handshake.
		errors.New("Traceback (most recent call last):\n" +
			"  File \"C:\\Users\\zjdn\\AppData\\Local\\Programs\\Python\\Python312\\Lib\\site-packages\\urllib3\\connectionpool.py\", line 790, in urlopen\n" +
			"    response = self._make_request(\n" +
			"               ^^^^^^^^^^^^^^^^^^^\n" +
			"  File \"C:\\Users\\zjdn\\AppData\\Local\\Programs\\Python\\Python312\\Lib\\site-packages\\urllib3\\connectionpool.py\", line 491, in _make_request\n" +
			"    raise new_e\n" +
			"  File \"C:\\Users\\zjdn\\AppData\\Local\\Programs\\Python\\Python312\\Lib\\site-packages\\urllib3\\connectionpool.py\", line 467, in _make_request\n" +
			"    self._validate_conn(conn)\n" +
			"  File \"C:\\Users\\zjdn\\AppData\\Local\\Programs\\Python\\Python312\\Lib\\site-packages\\urllib3\\connectionpool.py\", line 1092, in _validate_conn\n" +
			"    conn.connect()\n" +
			"  File \"C:\\Users\\zjdn\\AppData\\Local\\Programs\\Python\\Python312\\Lib\\site-packages\\urllib3\\connection.py\", line 642, in connect\n" +
			"    sock_and_verified = _ssl_wrap_socket_and_match_hostname(\n" +
			"                        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n" +
			"  File \"C:\\Users\\zjdn\\AppData\\Local\\Programs\\Python\\Python312\\Lib\\site-packages\\urllib3\\connection.py\", line 783, in _ssl_wrap_socket_and_match_hostname\n" +
			"    ssl_sock = ssl_wrap_socket(\n" +
			"               ^^^^^^^^^^^^^^^^\n" +
			"  File \"C:\\Users\\zjdn\\AppData\\Local\\Programs\\Python\\Python312\\Lib\\site-packages\\urllib3\\util\\ssl_.py\", line 469, in ssl_wr"),
		// microsoft/TaskWeaver#376: a stream cut under openai-python's SSE reader.
		errors.New("    for type_str, value, is_end in parser_stream:\n" +
			"  File \"/home/chenhao/work/projects/livis_demo/livis/taskweaver/role/translator.py\", line 277, in parse_llm_output_stream_v2\n" +
			"    for ev in parser:\n" +
			"  File \"/home/chenhao/work/projects/livis_demo/livis/taskweaver/utils/json_parser.py\", line 438, in parse_json_stream\n" +
			"    for chunk in itertools.chain(token_stream, [None]):\n" +
			"  File \"/home/chenhao/work/projects/livis_demo/livis/taskweaver/role/translator.py\", line 57, in stream_filter\n" +
			"    for c in s:\n" +
			"  File \"/home/chenhao/work/projects/livis_demo/livis/taskweaver/llm/__init__.py\", line 292, in _stream_smoother\n" +
			"    raise llm_source_error  # type:ignore\n" +
			"  File \"/home/chenhao/work/projects/livis_demo/livis/taskweaver/llm/__init__.py\", line 240, in base_stream_puller\n" +
			"    for msg in stream:\n" +
			"  File \"/home/chenhao/work/projects/livis_demo/livis/taskweaver/llm/openai.py\", line 179, in chat_completion\n" +
			"    for stream_res in res:\n" +
			"  File \"/home/chenhao/miniconda3/envs/taskweaver/lib/python3.10/site-packages/openai/_streaming.py\", line 46, in __iter__\n" +
			"    for item in self._iterator:\n" +
			"httpx.RemoteProtocolError: peer closed connection without sending complete message body (incomplete chunked read)"),
		// chatchat-space/Langchain-Chatchat#4383: uvicorn's exception group around a cut body.
		errors.New("  + Exception Group Traceback (most recent call last):\n" +
			"  |   File \"C:\\ProgramData\\Anaconda3\\envs\\llama-cpp-env\\lib\\site-packages\\uvicorn\\protocols\\http\\h11_impl.py\", line 396, in run_asgi\n" +
			"  |     result = await app(  # type: ignore[func-returns-value]\n" +
			"  |   File \"C:\\ProgramData\\Anaconda3\\envs\\llama-cpp-env\\lib\\site-packages\\uvicorn\\middleware\\proxy_headers.py\", line 70, in __call__\n" +
			"  |     return await self.app(scope, receive, send)\n" +
			"  |   File \"C:\\ProgramData\\Anaconda3\\envs\\llama-cpp-env\\lib\\site-packages\\fastapi\\applications.py\", line 1054, in __call__\n" +
			"  |     await super().__call__(scope, receive, send)\n" +
			"  |   File \"C:\\ProgramData\\Anaconda3\\envs\\llama-cpp-env\\lib\\site-packages\\starlette\\applications.py\", line 123, in __call__\n" +
			"  |     await self.middleware_stack(scope, receive, send)\n" +
			"  |   File \"C:\\ProgramData\\Anaconda3\\envs\\llama-cpp-env\\lib\\site-packages\\starlette\\middleware\\errors.py\", line 186, in __call__\n" +
			"  |     raise exc\n" +
			"  |   File \"C:\\ProgramData\\Anaconda3\\envs\\llama-cpp-env\\lib\\site-packages\\starlette\\middleware\\errors.py\", line 164, in __call__\n" +
			"  |     await self.app(scope, receive, _send)\n" +
			"RemoteProtocolError: peer closed connection without sending complete message body (incomplete chunked read)"),
		// ChatGPTNextWeb/NextChat#3296 and OpenHands/OpenHands#4480: Cloudflare's block page, without its status.
		errors.New("<!DOCTYPE html>\n<!--[if lt IE 7]> <html class=\"no-js ie6 oldie\" lang=\"en-US\"> <![endif]-->\n" +
			"<!--[if IE 7]>    <html class=\"no-js ie7 oldie\" lang=\"en-US\"> <![endif]-->\n" +
			"<!--[if IE 8]>    <html class=\"no-js ie8 oldie\" lang=\"en-US\"> <![endif]-->\n" +
			"<!--[if gt IE 8]><!--> <html class=\"no-js\" lang=\"en-US\"> <!--<![endif]-->\n" +
			"<head>\n<title>Attention Required! | Cloudflare</title>\n<meta charset=\"UTF-8\" />\n" +
			"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=UTF-8\" />\n" +
			"<meta http-equiv=\"X-UA-Compatible\" content=\"IE=Edge\" />\n<meta name=\"robots\" content=\"noindex, nofollow\" />\n" +
			"<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\" />\n" +
			"<link rel=\"stylesheet\" id=\"cf_styles-css\" href=\"/cdn-cgi/styles/cf.errors.css\" />\n" +
			"<style>body{margin:0;padding:0}</style>\n</head>\n<body>\n  <div id=\"cf-wrapper\">\n" +
			"            <p data-translate=\"blocked_why_detail\">This website is using a security service to protect itself from online attacks. The action you just performed triggered the security solution. There are several actions that could trigger this block including submitting a certain word or phrase, a SQL command or malformed data.</p>\n" +
			"          </div>\n\n          <div class=\"cf-column\">\n" +
			"            <h2 data-translate=\"blocked_resolve_headline\">What can I do to resolve this?</h2>\n\n" +
			"            <p data-translate=\"blocked_resolve_detail\">You can email the site owner to let them know you were blocked. Please include what you were doing when this page came up and the Cloudflare Ray ID found at the bottom of this page.</p>\n" +
			"          </div>\n        </div>\n      </div><!-- /.section -->\n" +
			"  <p class=\"text-13\">\n    <span class=\"cf-footer-item sm:block sm:mb-1\">Cloudflare Ray ID: <strong class=\"font-semibold\">8d49989abc171ce8</strong></span>\n"),
	}
}
