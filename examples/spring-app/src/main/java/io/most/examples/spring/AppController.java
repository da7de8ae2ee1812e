package io.most.examples.spring;

import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** The REST endpoints: prices from the slow service, notes kept in MOST's page store. */
@RestController
public class AppController {
    private final PriceService prices;
    private final NoteRepository notes;

    /** The endpoints over the price service and the notes. */
    public AppController(PriceService prices, NoteRepository notes) {
        this.prices = prices;
        this.notes = notes;
    }

    /** {@code GET /prices/{sku}}: the product's price. */
    @GetMapping("/prices/{sku}")
    public Map<String, Object> price(@PathVariable("sku") String sku) {
        return Map.of("sku", sku, "cents", prices.priceCents(sku));
    }

    /** {@code POST /notes} with the note as the text body: 201 with the note's id. */
    @PostMapping("/notes")
    public ResponseEntity<Map<String, Object>> saveNote(@RequestBody String text) {
        return ResponseEntity.status(HttpStatus.CREATED).body(Map.of("id", notes.save(text)));
    }

    /** {@code GET /notes/{id}}: the note, or 404. */
    @GetMapping("/notes/{id}")
    public ResponseEntity<Map<String, Object>> note(@PathVariable("id") long id) {
        return notes.find(id).map(text -> ResponseEntity.ok(Map.<String, Object>of("id", id, "text", text)))
                .orElseGet(() -> ResponseEntity.notFound().build());
    }

    /** A note too long for a page is the client's error. */
    @ExceptionHandler(IllegalArgumentException.class)
    public ResponseEntity<Map<String, Object>> badRequest(IllegalArgumentException e) {
        return ResponseEntity.badRequest().body(Map.of("error", e.getMessage()));
    }
}
