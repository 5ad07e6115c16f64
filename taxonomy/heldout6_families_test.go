package taxonomy_test

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"

	"github.com/resilientgo/resilient/taxonomy"
)

// sixthFamilyCases are the rows of the families that the sixth held-out
// batch's tuning part found misclassified, each from a real provider,
// runner, SDK or transport text (the source is in the row's name), next to
// the rows of texts they must not match.
func sixthFamilyCases() []classifyCase {
	P, R, T, U := taxonomy.Permanent, taxonomy.RateLimited, taxonomy.Transient, taxonomy.Unknown
	text := errors.New
	const chatURL = "https://api.openai.com/v1/chat/completions"
	return []classifyCase{
		// ---- a per-second or concurrency limit by its short name ----
		{"Baidu's error 18 (wangbang79408854/flutter_ocr#5)", text(`{"errorCode":18,"errorMsg":"[18] Open api qps request limit reached"}`),
			class(R, `pattern "qps limit reached"`, 0)},
		{"langchaingo ernie's error code 18 (erniellm.go)", fmt.Errorf("%w, error_code:%v, erro_msg:%v, id:%v", errors.New("has error code"), 18, "Open api qps request limit reached", "as-1"),
			class(R, `pattern "qps limit reached"`, 0)},
		{"a concurrency limit exceeded", text(`concurrency limit exceeded for this api key`),
			class(R, `pattern "qps limit reached"`, 0)},
		{"Baidu's error 17, a daily limit, is no rate limit", text(`[17] Open api daily request limit reached`),
			class(U, "no rule matched", 0)},
		{"a qps setting is no limit reached", text(`qps limit set to 20 for the worker pool`),
			class(U, "no rule matched", 0)},

		// ---- a stream cut under the reader ----
		{"Go's HTTP/2 body closed (reVrost/go-openrouter#9)", text(`failed to read chat completion stream: http2: response body closed`),
			class(T, `marker "response body closed"`, 0)},
		{"OkHttp's end of stream (openai/plugins-quickstart#13)", text(`java.io.IOException: unexpected end of stream on https://api.openai.com/...`),
			class(T, `marker "unexpected end of stream"`, 0)},
		{"Ollama's runner that stopped (continuedev/continue#11241)", text(`"model runner has unexpectedly stopped, this may be due to resource limitations or an internal error, check ollama server logs for details"`),
			class(T, `marker "runner has unexpectedly stopped"`, 0)},
		{"a runner too small for the model is still unloadable (ollama/ollama#5958)", text(`Error: llama runner process has terminated: error loading model: unable to allocate backend buffer`),
			class(P, `pattern "error loading model: out of memory"`, 0)},
		{"a body that closes when it should is no cut", text(`the response body closes after the last chunk`),
			class(U, "no rule matched", 0)},

		// ---- a spent balance sent as a 500 ----
		{"MiniMax's 500 (MiniMax-AI/MiniMax-M2#62)", text(`API Error: 500 {"type":"error","error":{"type":"api_error","message":"insufficient balance (1008)"},"request_id":"05997465cd2ee4bd50b24b216c911b75"}`),
			account(`pattern "insufficient balance"`, 500)},
		{"MiniMax's 500 through langchaingo anthropic", anthropicStatus(500, "insufficient balance (1008)"),
			account(`pattern "insufficient balance"`, 500)},
		{"a 503 that mentions a balance stays a busy server", openai(503, "insufficient balance check timed out, try again"),
			class(taxonomy.Overloaded, "status 503", 503)},
		{"a 500 with quota wording stays a server error", openai(500, "You exceeded your current quota"),
			class(T, "status 500", 500)},

		// ---- TLS handshakes a retry does not fix ----
		{"a server's handshake_failure alert (crypto/tls AlertError in net.OpError)", postErr(chatURL, &net.OpError{Op: "remote error", Err: tls.AlertError(40)}),
			class(P, "tls handshake", 0)},
		{"HTTPS to a plain HTTP port (crypto/tls RecordHeaderError)", postErr("https://localhost:11434/api/chat", tls.RecordHeaderError{Msg: "first record does not look like a TLS handshake"}),
			class(P, "tls handshake", 0)},
		{"a reset during the handshake stays transient", postErr(chatURL, &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}),
			class(T, "connection reset", 0)},

		// ---- a proxy's refusal of CONNECT, as net/http reports it ----
		{"a 407 (golang/go#49897)", postErr(chatURL, errors.New("Proxy Authentication Required")),
			class(P, "proxy status 407", 0)},
		{"a corporate proxy's 502", postErr(chatURL, errors.New("Bad Gateway")),
			class(T, "proxy status 502", 0)},
		{"a proxy's 403", postErr(chatURL, errors.New("Forbidden")),
			class(P, "proxy status 403", 0)},
		{"a phrase inside a longer transport error is no proxy's status", postErr(chatURL, errors.New("bad gateway certificate pinning failed in the dialer")),
			class(T, "transport error", 0)},
		// ---- Cloudflare Workers AI's documented errors, through langchaingo's cloudflare client ----
		{"3040 out of capacity (developers.cloudflare.com/workers-ai/platform/errors)", fmt.Errorf("error: %s", `{"result":null,"success":false,"errors":[{"code":3040,"message":"No more data centers to forward the request to"}],"messages":[]}`),
			class(taxonomy.Overloaded, `pattern "no more servers"`, 0)},
		{"no more replicas available", text(`inference failed: no more replicas available for model llama-3-70b`),
			class(taxonomy.Overloaded, `pattern "no more servers"`, 0)},
		{"no more servers to add is no capacity", text(`no more servers to add to the pool config`),
			class(U, "no rule matched", 0)},
		{"3006 request too large", fmt.Errorf("error: %s", `{"errors":[{"code":3006,"message":"Request is too large"}],"success":false}`),
			class(taxonomy.ContextOverflow, `pattern "request is too large"`, 0)},
		{"a request that is not too large", text(`validated: the request is not too large`),
			class(U, "no rule matched", 0)},
		{"3036 daily free allocation used up", fmt.Errorf("error: %s", `{"errors":[{"code":3036,"message":"You have used up your daily free allocation of 10,000 neurons. Please upgrade to Cloudflare's Workers Paid plan if you would like to continue usage."}],"success":false}`),
			account(`pattern "allocation used up"`, 0)},
		{"a share of the allocation used is no exhausted one", text(`you have used up 40% of your daily allocation`),
			class(U, "no rule matched", 0)},
		{"5007 no such model", fmt.Errorf("error: %s", `{"errors":[{"code":5007,"message":"No such model @cf/meta/llama-4-scout or task"}],"success":false}`),
			taxonomy.Class{Kind: P, Rule: `pattern "no such model"`, ModelMissing: true, AccountFailure: true}},
		{"a missing Modelfile is no missing model", text(`open ./Modelfile: no such modelfile in the build context`),
			class(U, "no rule matched", 0)},
		// ---- found by the sealed part, once its figure was taken ----
		{"Baidu ERNIE's too frequent (PaddlePaddle/ERNIE-SDK#107)", text(`APIError: 访问过于频繁，请稍候再试`),
			class(R, `pattern "requests too frequent (zh)"`, 0)},
		{"requests too frequent, another wording", text(`请求过于频繁，请稍后重试`),
			class(R, `pattern "requests too frequent (zh)"`, 0)},
		{"a frequently asked question is no rate limit", text(`常见问题：如何频繁更新模型？`),
			class(U, "no rule matched", 0)},
		{"Zhipu's balance as a 429 (continuedev/continue#11823)", text(`429 余额不足或无可用资源包,请充值。`),
			account(`pattern "insufficient balance (zh)"`, 429)},
		{"an account in arrears", text(`{"code":"Arrearage","message":"账户已欠费，请充值后重试"}`),
			account(`marker "欠费"`, 0)},
		{"a sufficient balance is no billing failure", text(`余额充足，调用成功`),
			class(U, "no rule matched", 0)},
		{"the gRPC code's Go name (QuantumNous/new-api#6619)", text(`Agent failed before reply: ResourceExhausted: Worker local total request limit reached (33/32).`),
			class(R, `marker "resourceexhausted"`, 0)},
		{"Anthropic's overloaded as a 500 (anthropics/claude-code#5932)", anthropicStatus(500, "Overloaded"),
			class(taxonomy.Overloaded, `marker "overloaded"`, 500)},
		{"a 500 that says nothing of capacity stays a server error", openai(500, "The server had an error processing your request."),
			class(T, "status 500", 500)},
		{"a 502 that says overloaded stays a gateway's", openai(502, "upstream overloaded"),
			class(T, "status 502", 502)},
		{"Bedrock's ModelErrorException, a 424 (bedrockruntime types/errors.go)", bedrockException(424, "ModelErrorException", "The request failed due to an error while processing the model."),
			taxonomy.Class{Kind: T, Rule: `code "ModelErrorException"`, Status: 424, Code: "ModelErrorException"}},
		{"Windows' connection refused (869413421/chatgpt-web#35)", text(`Post "https://api.openai.com/v1/chat/completions": proxyconnect tcp: dial tcp 127.0.0.1:10809: connectex: No connection could be made because the target machine actively refused it.`),
			class(T, `marker "actively refused"`, 0)},
		{"RFC 9457 problem details, NVIDIA NIM's 404 (Alishahryar1/free-claude-code#1021)", text(`{"status":404,"title":"Not Found","detail":"Function '23d4f03a-b8a6-4adb-a183-7daa083a09cc': Not found for account 'Qawmu2vUw3rdcREnubcAVqe1c55nUTb1hCogKQx4BCA'"}`),
			missing("status 404", 404)},
		{"a title that is no reason phrase", text(`{"title":"Not Found Yet: a novel","status":"draft"}`),
			class(U, "no rule matched", 0)},
	}
}
