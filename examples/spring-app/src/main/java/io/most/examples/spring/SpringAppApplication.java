package io.most.examples.spring;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cache.annotation.EnableCaching;

/**
 * A small REST application on MOST's Spring Boot starter: {@code application.yml} sets a directory
 * and a DRAM size, and the starter provides the {@code PageStore} bean, its health ({@code most}
 * component of {@code /actuator/health}) and its metrics ({@code /actuator/metrics/most.buffer.*});
 * with {@code @EnableCaching}, a {@code CacheManager} of MOST caches ({@code most.cache.*}) whose
 * meters are {@code /actuator/metrics/cache.gets} etc.
 */
@SpringBootApplication
@EnableCaching
public class SpringAppApplication {

    /** Starts the application (port 8080 unless {@code --server.port} says otherwise). */
    public static void main(String[] args) {
        SpringApplication.run(SpringAppApplication.class, args);
    }
}
