package io.most.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.most.PageStore;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The application on a random port, checked over real HTTP. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "app.price-delay=200ms")
class SpringAppTest {
    @TempDir
    static Path dir;

    @DynamicPropertySource
    static void storeInTheTestsDirectory(DynamicPropertyRegistry registry) {
        registry.add("most.store.directory", () -> dir.toString());
    }

    private final HttpClient http = HttpClient.newHttpClient();
    private final JsonMapper json = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    @Autowired
    PageStore store;

    @Autowired
    PriceService prices;

    @Test
    void secondPriceOfASkuIsServedFromTheMostCache() throws Exception {
        long runsBefore = prices.invocations();
        waitOutMetricsSnapshot();
        double hitsBefore = cacheGets("hit");
        HttpResponse<String> first = get("/prices/ABC-1");
        assertThat(first.statusCode()).isEqualTo(200);
        JsonNode body = json.readTree(first.body());
        assertThat(body.get("sku").asString()).isEqualTo("ABC-1");
        assertThat(body.get("cents").asLong()).isBetween(100L, 99_999L);
        assertThat(prices.invocations()).isEqualTo(runsBefore + 1);

        assertThat(get("/prices/ABC-1").body()).isEqualTo(first.body());
        assertThat(prices.invocations()).as("the slow service ran once").isEqualTo(runsBefore + 1);
        waitOutMetricsSnapshot();
        assertThat(cacheGets("hit")).isEqualTo(hitsBefore + 1);
    }

    @Test
    void cacheGetsHaveHitsAndMisses() throws Exception {
        get("/prices/XYZ-9");
        get("/prices/XYZ-9");
        waitOutMetricsSnapshot();
        HttpResponse<String> response = get("/actuator/metrics/cache.gets?tag=cache:prices");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json.readTree(response.body()).get("availableTags").toString()).contains("hit").contains("miss");
        assertThat(cacheGets("hit")).isPositive();
        assertThat(cacheGets("miss")).isPositive();
    }

    /**
     * MOST's cache meters reuse one statistics snapshot for 100 ms: sleeping longer makes the next
     * read fresh. A lower bound only, never a measured time.
     */
    private static void waitOutMetricsSnapshot() throws InterruptedException {
        Thread.sleep(150);
    }

    /** cache.gets of the prices cache with this result, over HTTP. */
    private double cacheGets(String result) throws Exception {
        HttpResponse<String> response = get("/actuator/metrics/cache.gets?tag=cache:prices&tag=result:" + result);
        assertThat(response.statusCode()).isEqualTo(200);
        return json.readTree(response.body()).get("measurements").get(0).get("value").asDouble();
    }

    @Test
    void healthIsUpWithAMostComponent() throws Exception {
        HttpResponse<String> response = get("/actuator/health");
        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode health = json.readTree(response.body());
        assertThat(health.get("status").asString()).isEqualTo("UP");
        JsonNode most = health.get("components").get("most");
        assertThat(most.get("status").asString()).isEqualTo("UP");
        assertThat(most.get("details").get("pages").get("capacity").asLong()).isEqualTo(store.pageCapacity());
        assertThat(most.get("details").get("devices").get("most.dev").get("open").asBoolean()).isTrue();
    }

    @Test
    void notesAreKeptInThePageStore() throws Exception {
        long allocatedBefore = store.stats().allocatedPages();
        HttpResponse<String> created = http.send(HttpRequest.newBuilder(uri("/notes"))
                .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString("héllo MOST")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(created.statusCode()).isEqualTo(201);
        long id = json.readTree(created.body()).get("id").asLong();
        assertThat(store.isAllocated(id)).isTrue();
        assertThat(store.stats().allocatedPages()).isEqualTo(allocatedBefore + 1);
        assertThat(json.readTree(get("/notes/" + id).body()).get("text").asString()).isEqualTo("héllo MOST");
        assertThat(get("/notes/" + (store.pageCapacity() + 5)).statusCode()).isEqualTo(404);
    }

    @Test
    void tooLongANoteIsABadRequest() throws Exception {
        String tooLong = "x".repeat(store.payloadSize());
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri("/notes"))
                .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString(tooLong)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("a note holds at most");
    }

    @Test
    void storeMetricsAreExposed() throws Exception {
        get("/notes/0");
        HttpResponse<String> response = get("/actuator/metrics/most.buffer.hits");
        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode metric = json.readTree(response.body());
        assertThat(metric.get("name").asString()).isEqualTo("most.buffer.hits");
        assertThat(metric.get("availableTags").toString()).contains("\"tier\"").contains("dram");
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://localhost:" + port + path);
    }
}
