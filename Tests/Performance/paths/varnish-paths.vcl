vcl 4.1;
# Varnish in front of nginx-origin.conf on 127.0.0.1:9320: the second peer of paths-bench.sh.
# Caches /hit/, /big/, /zipf/ and /reval/ by the origin's Cache-Control (file storage, sized by
# paths-bench.sh to hold every key); passes /pass/ (backend connections are kept alive by
# default). Expired objects are kept an hour so that a request after max-age revalidates them
# with If-None-Match (304 from the origin) instead of fetching the body again; no grace, so that
# revalidation is synchronous, as nginx's proxy_cache_revalidate and the gateway's are.
# Start: varnishd -a 127.0.0.1:9320 -f THIS -s file,PATH,SIZE -n DIR -P PIDFILE
backend origin {
    .host = "127.0.0.1";
    .port = "9300";
}

sub vcl_recv {
    if (req.url ~ "^/pass/") {
        return (pass);
    }
}

sub vcl_backend_response {
    set beresp.grace = 0s;
    set beresp.keep = 1h;
}
